import { describe, expect, it } from "vitest";
import { devProjectSeed } from "@authsim/fixtures";
import { opSeam, type OpSeam } from "../../../test-support/op-seam.ts";
import type { ProjectRecord } from "../../store/records.ts";
import { defaultThemes, DEFAULT_TEMPLATE_IDS, LEGACY_THEME_IDS } from "../../email/default-sources.ts";
import {
  createDraft,
  createTemplate,
  createTheme,
  deleteDraft,
  deleteTemplate,
  deleteTheme,
  listDrafts,
  listTemplates,
  listThemes,
  requireTheme,
  updateDraft,
} from "./email-content.ts";

/** The admin's email themes, templates and drafts (spec §3, §8; protocol.md §5.12), at the ops' seam. */

const PROJECT = devProjectSeed.id;
/** The caller's project as the request's authentication read it, with a custom email server configured. */
const withCustomEmailServer = (seam: OpSeam): ProjectRecord => {
  const project = seam.project();
  return {
    ...project,
    config: {
      ...project.config,
      email_config: {
        type: "standard",
        host: "smtp.example.com",
        port: 587,
        username: "u",
        password: "p",
        sender_name: "App",
        sender_email: "noreply@example.com",
      },
    },
  };
};

describe("themes", () => {
  it("start with the defaults, and a new one starts as a copy of the default theme", async () => {
    const seam = opSeam();
    expect((await seam.ok((ctx) => listThemes(ctx, PROJECT))).map((t) => t.displayName)).toEqual(
      defaultThemes.map((t) => t.displayName),
    );
    const made = await seam.ok((ctx) => createTheme(ctx, PROJECT, "Brand"));
    expect(made.tsxSource).toBe(defaultThemes[0]!.tsxSource);
    expect((await seam.ok((ctx) => listThemes(ctx, PROJECT))).at(-1)?.id).toBe(made.id);
    // The old ids of the default themes still name them.
    expect((await seam.ok((ctx) => requireTheme(ctx, PROJECT, "default-light"))).id).toBe(
      LEGACY_THEME_IDS["default-light"],
    );
  });

  it("refuses deleting the selected theme (plain 400) and an unknown one (plain 404)", async () => {
    const seam = opSeam();
    const made = await seam.ok((ctx) => createTheme(ctx, PROJECT, "Brand"));
    expect((await seam.refuses((ctx) => deleteTheme(ctx, PROJECT, made.id, made.id), 400)).message).toBe(
      "Cannot delete the currently active email theme. Please select a different theme first.",
    );
    expect(
      (await seam.refuses((ctx) => deleteTheme(ctx, PROJECT, "no-such-theme", "default-light"), 404)).message,
    ).toBe("No theme found with given id");
    await seam.ok((ctx) => deleteTheme(ctx, PROJECT, made.id, "default-light"));
    expect((await seam.ok((ctx) => listThemes(ctx, PROJECT))).some((t) => t.id === made.id)).toBe(false);
  });
});

describe("templates", () => {
  it("need a custom email server (REQUIRES_CUSTOM_EMAIL_SERVER)", async () => {
    const seam = opSeam();
    await seam.refuses((ctx) => createTemplate(ctx, seam.project(), "Welcome"), "REQUIRES_CUSTOM_EMAIL_SERVER");
    await seam.refuses(
      (ctx) => deleteTemplate(ctx, seam.project(), DEFAULT_TEMPLATE_IDS.magic_link),
      "REQUIRES_CUSTOM_EMAIL_SERVER",
    );
  });

  it("are unique by name, case-insensitively (EMAIL_TEMPLATE_ALREADY_EXISTS); deleting an unknown one is a plain 404", async () => {
    const seam = opSeam();
    const project = withCustomEmailServer(seam);
    const made = await seam.ok((ctx) => createTemplate(ctx, project, "Welcome"));
    expect((await seam.ok((ctx) => listTemplates(ctx, PROJECT))).at(-1)?.id).toBe(made.id);
    await seam.refuses((ctx) => createTemplate(ctx, project, "WELCOME"), "EMAIL_TEMPLATE_ALREADY_EXISTS");
    expect((await seam.refuses((ctx) => deleteTemplate(ctx, project, "no-such-template"), 404)).message).toBe(
      "No template found with given id",
    );
    await seam.ok((ctx) => deleteTemplate(ctx, project, made.id));
    expect((await seam.ok((ctx) => listTemplates(ctx, PROJECT))).some((t) => t.id === made.id)).toBe(false);
  });
});

describe("drafts", () => {
  it("list the most recently changed first", async () => {
    const seam = opSeam();
    const first = await seam.ok((ctx) => createDraft(ctx, PROJECT, { display_name: "First" }));
    seam.clock.advance(1_000);
    const second = await seam.ok((ctx) => createDraft(ctx, PROJECT, {}));
    expect(second.displayName).toBe("New draft");
    seam.clock.advance(1_000);
    await seam.ok((ctx) => updateDraft(ctx, PROJECT, first.id, { display_name: "First, edited", theme_id: false }));
    expect((await seam.ok((ctx) => listDrafts(ctx, PROJECT))).map((d) => [d.displayName, d.themeId])).toEqual([
      ["First, edited", false],
      ["New draft", null],
    ]);
  });

  it("refuse an unknown draft with a plain 404", async () => {
    const seam = opSeam();
    expect(
      (await seam.refuses((ctx) => updateDraft(ctx, PROJECT, "no-such-draft", { display_name: "x" }), 404)).message,
    ).toBe("No draft found with given id");
    await seam.refuses((ctx) => deleteDraft(ctx, PROJECT, "no-such-draft"), 404);
  });
});
