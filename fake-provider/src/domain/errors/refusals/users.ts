import type { Arg, Refusal } from "./refusal.ts";

/** Plain-text refusals of users, contact channels, notifications, images (domain/ops/users/, domain/ops/storage/). */
export const usersRefusals = {
  // domain/ops/users/contact-channels.ts
  contactChannelNotFoundToWrite: { status: 400, text: "Contact channel not found" },
  contactChannelAlreadyExists: { status: 400, text: "Contact channel already exists" },
  contactChannelFoundWasContact: { status: 400, text: "Contact channel not found. Was your contact channel deleted?" },
  // domain/ops/users/current-user.ts
  clientUserDeletionEnabledProject: {
    status: 400,
    text: "Client user deletion is not enabled for this project",
    operations: ["deleteMe"],
  },
  // domain/ops/users/notifications.ts
  notificationCategoryFound: { status: 404, text: "Notification category not found" },
  // domain/ops/users/profile-image.ts
  invalidProfileImageUrl: { status: 400, text: "Invalid profile image URL" },
  // domain/ops/storage/uploaded-images.ts: an uploaded image's checks (the real service's image processing errors)
  imageTooLarge: {
    status: 400,
    text: (size: Arg, max: Arg) => `Image size (${size} bytes) exceeds maximum allowed size (${max} bytes)`,
  },
  invalidImageFormat: { status: 400, text: "Invalid image format or corrupted image data" },
  // domain/ops/users/users.ts
  cannotSetBothPasswordPassword: {
    status: 400,
    text: "Cannot set both password and password_hash at the same time.",
    operations: ["createUser", "updateUser", "updateMe"],
  },
  invalidPasswordHashMakeSure: {
    status: 400,
    text: "Invalid password hash. Make sure it's a supported algorithm in Modular Crypt Format.",
    operations: ["createUser", "updateUser", "updateMe"],
  },
  // domain/ops/users/users.ts: sign-in methods a create or update turns on must be on in the project.
  cannotManuallyEnablePasskey: {
    status: 400,
    text: "Cannot manually enable passkey auth, it is enabled iff there is a passkey auth method",
    operations: ["updateUser", "updateMe"],
  },
  otpAuthNotEnabledInProject: {
    status: 400,
    text: "OTP auth not enabled in the project",
    operations: ["createUser", "updateUser", "updateMe"],
  },
  passwordAuthNotEnabledInProject: {
    status: 400,
    text: "Password auth not enabled in the project",
    operations: ["createUser", "updateUser", "updateMe"],
  },
  primaryEmailAuthEnabledCannot: {
    status: 400,
    text: "primary_email_auth_enabled cannot be true without primary_email",
    operations: ["createUser", "updateUser", "updateMe"],
  },
  primaryEmailVerifiedCannotTrue: {
    status: 400,
    text: "primary_email_verified cannot be true without primary_email",
    operations: ["createUser", "updateUser", "updateMe"],
  },
  onlyAnonymousTrueRequiresInclude: { status: 400, text: "only_anonymous=true requires include_anonymous=true" },
} as const satisfies Readonly<Record<string, Refusal>>;
