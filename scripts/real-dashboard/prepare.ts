/**
 * Turns the real dashboard's sources, extracted from the real repository into a folder outside authsim, into an app
 * that installs from npm alone: its workspace packages become the published kit, its unpublished UI package is
 * compiled from its sources inside the app, and its one network font (Google's Inter) becomes a font file the geist
 * package ships, so the build needs no network beyond the npm registry. Run by build.sh; edits only that folder.
 *
 *   npx tsx scripts/real-dashboard/prepare.ts <extracted root> <published kit version>
 */
import { cpSync, readFileSync, writeFileSync } from "node:fs";
import { join } from "node:path";

const [root, kitVersion, lockfilePath] = process.argv.slice(2);
if (!root || !kitVersion || !lockfilePath) {
  throw new Error("usage: prepare.ts <extracted root> <published kit version> <pnpm-lock.yaml>");
}
const app = join(root, "apps/dashboard");
const uiPackage = join(root, "packages/dashboard-ui-components");

type PackageJson = {
  dependencies: Record<string, string>;
  devDependencies?: Record<string, string>;
  overrides?: Record<string, string>;
};
const readJson = <T>(path: string): T => JSON.parse(readFileSync(path, "utf8")) as T;

// The published kit in place of the workspace packages; the UI package's own dependencies join the app's.
const pkg = readJson<PackageJson>(join(app, "package.json"));
const uiPkg = readJson<PackageJson>(join(uiPackage, "package.json"));
for (const [name, range] of Object.entries(uiPkg.dependencies)) pkg.dependencies[name] ??= range;
delete pkg.dependencies["@stackframe/dashboard-ui-components"];
// Each direct dependency at the version the real repository's lockfile resolved (a range would take whatever npm has
// newest today, which the dashboard was never built with).
const locked = new Map([
  ...lockedVersions(lockfilePath, "apps/dashboard"),
  ...lockedVersions(lockfilePath, "packages/dashboard-ui-components"),
]);
for (const deps of [pkg.dependencies, pkg.devDependencies ?? {}]) {
  for (const [name, range] of Object.entries(deps)) {
    if (range.startsWith("workspace:")) deps[name] = kitVersion;
    else deps[name] = locked.get(name) ?? range;
  }
}
// The dependencies of dependencies too: npm would otherwise take the newest each range allows (react-globe.gl 2.28.2
// pulled a globe.gl that needs a newer three than the 0.169 the dashboard pins, and the build failed). Each package the
// lockfile holds in one version only is held there with an override; the published kit's own are left to the kit.
const direct = new Set([...Object.keys(pkg.dependencies), ...Object.keys(pkg.devDependencies ?? {})]);
pkg.overrides = Object.fromEntries(
  singleVersionPackages(lockfilePath).filter(([name]) => !direct.has(name) && !name.startsWith("@stackframe/")),
);
writeFileSync(join(app, "package.json"), JSON.stringify(pkg, null, 2) + "\n");

// The UI package compiled from its sources as part of the app: copied under src/ and named by a path alias.
cpSync(join(uiPackage, "src"), join(app, "src/vendored-dashboard-ui-components"), { recursive: true });
const tsconfigPath = join(app, "tsconfig.json");
const tsconfig = readJson<{ compilerOptions: { paths: Record<string, string[]> } }>(tsconfigPath);
tsconfig.compilerOptions.paths["@stackframe/dashboard-ui-components"] = [
  "./src/vendored-dashboard-ui-components/index.ts",
];
writeFileSync(tsconfigPath, JSON.stringify(tsconfig, null, 2) + "\n");

// Imports that reach into the monorepo's built packages by relative path name the published package instead (its
// export map opens only its root, which exports the same function).
const monorepoImport = /from "(?:\.\.\/)+packages\/stack-ui\/dist\/lib\/utils"/g;
const surfacePath = join(app, "src/components/pacifica/surface.tsx");
writeFileSync(surfacePath, readFileSync(surfacePath, "utf8").replace(monorepoImport, 'from "@stackframe/stack-ui"'));

// Offline fonts: Inter from Google Fonts would be downloaded at build time; the geist package ships its font files.
const layoutPath = join(app, "src/app/layout.tsx");
const layout = readFileSync(layoutPath, "utf8");
const googleImport = 'import { Inter as FontSans } from "next/font/google";';
const googleCall = /const fontSans = FontSans\(\{[^}]*\}\);/;
if (!layout.includes(googleImport) || !googleCall.test(layout)) {
  throw new Error(`${layoutPath}: the Google font import changed; update prepare.ts`);
}
writeFileSync(
  layoutPath,
  layout
    .replace(googleImport, 'import localFont from "next/font/local";')
    .replace(
      googleCall,
      'const fontSans = localFont({ src: "../../node_modules/geist/dist/fonts/geist-sans/Geist-Variable.woff2", variable: "--font-sans" });',
    ),
);
/**
 * The versions pnpm-lock.yaml resolved for one importer's direct dependencies: its `importers.<path>` block lists each
 * as a quoted or bare name line, then `specifier:` and `version: x.y.z(peer…)` lines (only the leading version kept).
 */
function lockedVersions(lockfile: string, importer: string): [string, string][] {
  const lines = readFileSync(lockfile, "utf8").split("\n");
  const start = lines.indexOf(`  ${importer}:`);
  if (start < 0) throw new Error(`${lockfile} has no importer ${importer}`);
  const found: [string, string][] = [];
  let name: string | undefined;
  for (const line of lines.slice(start + 1)) {
    if (/^ {0,2}\S/.test(line)) break; // the next importer or section
    const nameLine = /^ {6}'?([^':\s]+)'?:$/.exec(line);
    if (nameLine) name = nameLine[1];
    const versionLine = /^ {8}version: (\d[^(\s]*)/.exec(line);
    if (versionLine && name) found.push([name, versionLine[1]!]);
  }
  return found;
}

/** The packages the lockfile's `packages:` section lists in exactly one version (`  name@version:` lines). */
function singleVersionPackages(lockfile: string): [string, string][] {
  const text = readFileSync(lockfile, "utf8");
  const section = text.slice(text.indexOf("\npackages:\n"), text.indexOf("\nsnapshots:\n"));
  const versions = new Map<string, Set<string>>();
  for (const match of section.matchAll(/^ {2}'?(@?[^@\s']+)@([^(:'\s]+)'?:$/gm)) {
    const seen = versions.get(match[1]!) ?? new Set<string>();
    versions.set(match[1]!, seen.add(match[2]!));
  }
  return [...versions].filter(([, seen]) => seen.size === 1).map(([name, seen]) => [name, [...seen][0]!]);
}

console.log(`prepared ${app} (kit ${kitVersion})`);
