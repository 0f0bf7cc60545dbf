/** The modules an email's TSX may import (sandbox.ts, node-engine.ts). */
export const TEMPLATE_IMPORTS = [
  "react",
  "react/jsx-runtime",
  "@react-email/components",
  "@stackframe/emails",
  "arktype",
];
