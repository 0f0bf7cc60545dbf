import { mkdir, mkdtemp, rm, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { devProjectSeed as dev } from "@authsim/fixtures";
import { createFakeProvider } from "@authsim/fake-provider";
import { inFrontOf } from "../bundles/serve-bundle.ts";
import { hostedHandler, hostedOnly } from "./serve.ts";

/**
 * serve.ts on any project of the emulator: `?project_id=` picks it and a cookie remembers it, the config answers for
 * the chosen project (the dev project by default), an unknown one gets a page that says so, and a project that does not
 * trust the origin is flagged for the pages to explain.
 */
const ORIGIN = "http://127.0.0.1:8102";
const COOKIE = "authsim-hosted-project";
const provider = createFakeProvider();
const emulator = (r: Request) => provider.app.fetch(r);
let dir: string;
let served: (r: Request) => Promise<Response>;

const get = (path: string, headers: Record<string, string> = {}, origin = ORIGIN) =>
  served(new Request(`${origin}${path}`, { headers }));

/** A project made the way the dashboard makes one (fresh keys), with the given config. */
interface MadeProject {
  id: string;
  publishable_client_key: string;
  secret_server_key: string;
  super_secret_admin_key: string;
}
async function project(display_name: string, config: Record<string, unknown>): Promise<MadeProject> {
  const response = await provider.app.fetch(
    new Request(`${ORIGIN}/__emulator/projects`, {
      method: "POST",
      headers: { "content-type": "application/json" },
      body: JSON.stringify({ display_name, config }),
    }),
  );
  expect(response.status).toBe(201);
  return (await response.json()) as MadeProject;
}

beforeAll(async () => {
  dir = await mkdtemp(join(tmpdir(), "authsim-hosted-projects-"));
  await mkdir(join(dir, "assets"), { recursive: true });
  await writeFile(join(dir, "index.html"), "<!doctype html><title>hosted</title>");
  served = inFrontOf([hostedHandler(dir, emulator)], emulator);
});
afterAll(async () => {
  await rm(dir, { recursive: true, force: true });
});

/** The config the page was served with (serve.ts inlines it), read back as the page reads it. */
function inlined(html: string): unknown {
  const json = /<script type="application\/json" id="authsim-hosted-config">([^<]*)<\/script>/.exec(html)?.[1];
  expect(json).toBeDefined();
  return JSON.parse(json!);
}

describe("the config inlined in each page", () => {
  it("is the config the page would ask for, the project's client view with its sign-in methods and no secret", async () => {
    const other = await project("Inline & Co", {
      allow_localhost: true,
      sign_up_enabled: false,
      magic_link_enabled: true,
    });
    const html = await (await get(`/handler/sign-in?project_id=${other.id}`)).text();
    const config = await (await get(`/__emulator/hosted/config.json?project_id=${other.id}`)).json();
    expect(inlined(html)).toEqual(config);
    expect(config).toMatchObject({
      projectId: other.id,
      project: { display_name: "Inline & Co", config: { sign_up_enabled: false, magic_link_enabled: true } },
    });
    expect(html).not.toContain(other.secret_server_key);
    expect(html).not.toContain(other.super_secret_admin_key);
  });

  it("cannot end its element early or open a comment, whatever the project's name holds", async () => {
    const name = "</script><script>alert(1)</script><!-- & \u2028";
    const other = await project(name, { allow_localhost: true });
    const html = await (await get(`/app?project_id=${other.id}`)).text();
    expect(html.match(/<script/g)).toHaveLength(1);
    expect(html).not.toContain("<!--");
    expect(inlined(html)).toMatchObject({ projectName: name, project: { display_name: name } });
  });
});

describe("choosing the hosted pages' project", () => {
  it("remembers ?project_id= in a cookie, and the config then answers for that project", async () => {
    const other = await project("Northwind", { allow_localhost: true });
    const page = await get(`/handler/sign-up?project_id=${other.id}`);
    expect(page.status).toBe(200);
    expect(await page.text()).toContain("<title>hosted</title>");
    expect(page.headers.getSetCookie()).toEqual([`${COOKIE}=${other.id}; Path=/; SameSite=Lax; HttpOnly`]);
    const expected = {
      baseUrl: ORIGIN,
      projectId: other.id,
      projectName: "Northwind",
      publishableClientKey: other.publishable_client_key,
      originTrusted: true,
      allowLocalhost: true,
      project: expect.objectContaining({
        id: other.id,
        display_name: "Northwind",
        config: expect.objectContaining({ sign_up_enabled: true }),
      }),
    };
    // The pages' own redirects carry no parameter: the cookie keeps them on the project.
    expect(await (await get("/__emulator/hosted/config.json", { cookie: `${COOKIE}=${other.id}` })).json()).toEqual(
      expected,
    );
    // The page passes its own parameter along, which beats the cookie.
    expect(
      await (
        await get(`/__emulator/hosted/config.json?project_id=${other.id}`, { cookie: `${COOKIE}=${dev.id}` })
      ).json(),
    ).toEqual(expected);
    // A page without the parameter leaves the remembered choice alone.
    expect((await get("/app", { cookie: `${COOKIE}=${other.id}` })).headers.getSetCookie()).toEqual([]);
  });

  it("serves the dev project when nothing picks one, and sets no cookie", async () => {
    const page = await get("/handler/sign-in");
    expect([page.status, page.headers.getSetCookie()]).toEqual([200, []]);
    const config = await get("/__emulator/hosted/config.json");
    expect(await config.json()).toMatchObject({
      projectId: dev.id,
      projectName: dev.display_name,
      publishableClientKey: dev.keys.publishable_client_key,
    });
  });

  it("answers an unknown project with a page that names it and links to the emulator's projects, and sets no cookie", async () => {
    const page = await get("/handler/sign-up?project_id=no-such-project");
    expect([page.status, page.headers.get("content-type"), page.headers.getSetCookie()]).toEqual([
      404,
      "text/html; charset=utf-8",
      [],
    ]);
    const html = await page.text();
    expect(html).toContain("<h1>No such project</h1>");
    expect(html).toContain(
      "The address asks for the project <code>no-such-project</code>, which this emulator does not have.",
    );
    expect(html).toContain(`<a href="/handler/sign-up?project_id=${dev.id}">${dev.display_name}</a>`);
    const config = await get("/__emulator/hosted/config.json?project_id=no-such-project");
    expect([config.status, await config.json()]).toEqual([
      404,
      { error: "This emulator has no project no-such-project." },
    ]);
    // The emulator's own project is not one of the pages' projects.
    expect((await get("/handler/sign-in?project_id=internal")).status).toBe(404);
  });

  it("forgets a remembered project the emulator no longer has (reset, restarted, or another emulator on this host)", async () => {
    const page = await get("/app", { cookie: `${COOKIE}=gone-since-reset` });
    expect(page.status).toBe(404);
    expect(await page.text()).toContain("This browser last chose the project <code>gone-since-reset</code>");
    expect(page.headers.getSetCookie()).toEqual([`${COOKIE}=; Path=/; Max-Age=0; SameSite=Lax; HttpOnly`]);
  });

  it("flags a project that does not trust the origin, without changing its config", async () => {
    const closed = await project("Localhost closed", {
      allow_localhost: false,
      domains: [{ domain: "http://localhost:8102", handler_path: "/handler" }],
    });
    const config = (origin: string) =>
      get(`/__emulator/hosted/config.json?project_id=${closed.id}`, {}, origin).then(
        (r) => r.json() as Promise<{ originTrusted: boolean }>,
      );
    expect((await config(ORIGIN)).originTrusted).toBe(false);
    // Its trusted domain names localhost:8102: there the redirects work.
    expect((await config("http://localhost:8102")).originTrusted).toBe(true);
    const listed = await provider.app.fetch(new Request(`${ORIGIN}/__emulator/fixture?project_id=${closed.id}`));
    expect(
      ((await listed.json()) as { projects: { config: { allow_localhost: boolean } }[] }).projects[0]!.config
        .allow_localhost,
    ).toBe(false);
  });

  it("answers a 502 that says why when the emulator's projects cannot be read", async () => {
    const broken = inFrontOf(
      [hostedHandler(dir, () => Promise.reject(new Error("connect ECONNREFUSED 127.0.0.1:8102")))],
      emulator,
    );
    const page = await broken(new Request(`${ORIGIN}/handler/sign-in`));
    expect(page.status).toBe(502);
    expect(await page.text()).toContain("connect ECONNREFUSED 127.0.0.1:8102");
    const config = await broken(new Request(`${ORIGIN}/__emulator/hosted/config.json`));
    expect([config.status, await config.json()]).toEqual([
      502,
      { error: "The hosted pages could not read the emulator's projects: connect ECONNREFUSED 127.0.0.1:8102" },
    ]);
  });
});

describe("a project's own address, <projectId>.localhost (the published kit's hosted mode)", () => {
  const onHost = (id: string, path: string, headers: Record<string, string> = {}) =>
    get(path, headers, `http://${id}.localhost:8102`);

  it("serves that project's pages, whatever the query or a remembered choice say, with the API on the emulator's localhost name", async () => {
    const other = await project("Hosted Mode Inc", { allow_localhost: true });
    const page = await onHost(other.id, `/handler/sign-in?project_id=${dev.id}`, { cookie: `${COOKIE}=${dev.id}` });
    expect([page.status, page.headers.getSetCookie()]).toEqual([200, []]);
    expect(inlined(await page.text())).toMatchObject({
      baseUrl: "http://localhost:8102",
      projectId: other.id,
      projectName: "Hosted Mode Inc",
      originTrusted: true,
      allowLocalhost: true,
    });
    // Host names are case-insensitive; ids are lower case.
    expect(
      ((await (await onHost(dev.id.toUpperCase(), "/__emulator/hosted/config.json")).json()) as { projectId: string })
        .projectId,
    ).toBe(dev.id);
  });

  it("is not trusted by a project that does not allow localhost, and the pages are told so", async () => {
    const closed = await project("Closed hosted", { allow_localhost: false });
    expect(await (await onHost(closed.id, "/__emulator/hosted/config.json")).json()).toMatchObject({
      originTrusted: false,
      allowLocalhost: false,
    });
  });

  it("names an unknown project and links to the others on their own addresses", async () => {
    const page = await onHost("no-such-project", "/handler/sign-in");
    expect(page.status).toBe(404);
    const html = await page.text();
    expect(html).toContain("The address asks for the project <code>no-such-project</code>");
    expect(html).toContain(`<a href="http://${dev.id}.localhost:8102/handler/sign-in">`);
    expect(html).toContain(`<a href="http://localhost:8102/#projects">dashboard</a>`);
  });

  it("answers the hosted pages and their assets only: never the API, the controls or the dashboard", async () => {
    const at = (host: string, path: string) => hostedOnly(new Request(`http://${host}${path}`));
    for (const path of [
      "/handler/sign-in",
      "/handler",
      "/app",
      "/__emulator/hosted/config.json",
      "/__emulator/hosted/assets/x.js",
    ])
      expect(at(`${dev.id}.localhost:8102`, path)).toBeNull();
    for (const path of [
      "/",
      "/api/v1/users",
      "/api/latest/projects/current",
      "/__emulator/projects",
      "/__emulator/reset",
      "/handlerx",
    ]) {
      const refused = at(`${dev.id}.localhost:8102`, path);
      expect(refused?.status).toBe(404);
    }
    await expect(at(`${dev.id}.localhost:8102`, "/api/v1/users")!.text()).resolves.toContain("http://localhost:8102");
    // The emulator's own names are untouched.
    for (const host of ["localhost:8102", "127.0.0.1:8102", "[::1]:8102"]) expect(at(host, "/api/v1/users")).toBeNull();
  });
});
