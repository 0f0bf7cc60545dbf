import { describe, expect, it } from "vitest";
import { devPortsEnv, envLines, parseCliArgs } from "./cli-args.ts";
import { startupRefusal } from "./cli-safety.ts";

describe("dev server command line", () => {
  it("defaults to 127.0.0.1:8102 (or $PORT), fast hashing and 600 s tokens", () => {
    expect(parseCliArgs([], {})).toEqual({
      port: 8102,
      host: "127.0.0.1",
      hashCost: "fast",
      accessTokenLifetimeSeconds: 600,
      deterministic: null,
      snapshotFile: null,
      allowNetwork: false,
      seedFile: null,
      fixedOtp: [],
      allowHosts: [],
      outboxCapacity: 10_000,
      requestLogCapacity: 1_000,
      mockOAuthPort: null,
      readyJson: false,
      configFile: null,
      watch: false,
      exec: null,
      svixPort: null,
      purchasePort: null,
      mailboxPort: null,
      smtpPort: null,
      smtpAllowHosts: [],
      storagePort: null,
      dashboardUrl: null,
    });
    expect(parseCliArgs([], { PORT: "9000" }).port).toBe(9000);
  });

  it("reads every option", () => {
    const o = parseCliArgs(
      [
        ...[
          "--port",
          "0",
          "--host",
          "::1",
          "--hash-cost",
          "production",
          "--access-token-lifetime",
          "120",
          "--deterministic",
          "s",
          "--snapshot",
          "f.json",
          "--allow-network",
          "--seed",
          "s.json",
        ],
        ...[
          "--allow-host",
          "Host.Docker.Internal",
          "--allow-host",
          "my-laptop.lan",
          "--outbox-capacity",
          "50",
          "--request-log-capacity",
          "7",
          "--mock-oauth-port",
          "8114",
          "--svix-port",
          "8113",
          "--smtp-allow-host",
          "Mail.Example.Test",
        ],
        ...["--ready-json", "--config", "stack.config.ts", "--watch"],
      ],
      {},
    );
    expect(o).toEqual({
      port: 0,
      host: "::1",
      hashCost: "production",
      accessTokenLifetimeSeconds: 120,
      deterministic: "s",
      snapshotFile: "f.json",
      allowNetwork: true,
      seedFile: "s.json",
      fixedOtp: [],
      allowHosts: ["host.docker.internal", "my-laptop.lan"],
      outboxCapacity: 50,
      requestLogCapacity: 7,
      mockOAuthPort: 8114,
      svixPort: 8113,
      readyJson: true,
      configFile: "stack.config.ts",
      watch: true,
      exec: null,
      purchasePort: null,
      mailboxPort: null,
      smtpPort: null,
      smtpAllowHosts: ["mail.example.test"],
      storagePort: null,
      dashboardUrl: null,
    });
    expect(() => parseCliArgs(["--smtp-allow-host", "smtp://x"], {})).toThrow(/without scheme or port/);
  });

  it("--dev-ports serves the development setup's family around <prefix>02; --dev-ports-skip leaves some off", () => {
    const all = parseCliArgs(["--port", "31402", "--dev-ports"], {});
    expect(all).toMatchObject({
      purchasePort: 31401,
      mailboxPort: 31405,
      svixPort: 31413,
      mockOAuthPort: 31414,
      storagePort: 31421,
      smtpPort: 31429,
      dashboardUrl: "http://localhost:31401",
    });
    // The real dashboard on 01: purchase URLs still name it; our purchase pages and the storage port stay off.
    const skipped = parseCliArgs(["--dev-ports", "--dev-ports-skip", "01,21"], { PORT: "8102" });
    expect(skipped).toMatchObject({
      purchasePort: null,
      storagePort: null,
      mailboxPort: 8105,
      dashboardUrl: "http://localhost:8101",
    });
    // A port named by its own flag wins.
    expect(parseCliArgs(["--port", "8102", "--svix-port", "9913", "--dev-ports"], {}).svixPort).toBe(9913);
    expect(() => parseCliArgs(["--port", "8100", "--dev-ports"], {})).toThrow(/ending in 02/);
    expect(() => parseCliArgs(["--dev-ports-skip", "01"], {})).toThrow(/pass --dev-ports too/);
    expect(() => parseCliArgs(["--dev-ports", "--dev-ports-skip", "02"], {})).toThrow(/01, 05, 13, 14, 21, 29/);
    // What the real suite reads to find them (authsim exec's environment, --ready-json's env).
    expect(devPortsEnv(all)).toEqual({
      NEXT_PUBLIC_STACK_PORT_PREFIX: "314",
      STACK_BACKEND_BASE_URL: "http://localhost:31402",
      STACK_DASHBOARD_BASE_URL: "http://localhost:31401",
      STACK_INBUCKET_API_URL: "http://localhost:31405",
      STACK_SVIX_SERVER_URL: "http://localhost:31413",
    });
    expect(devPortsEnv(parseCliArgs([], {}))).toEqual({});
  });

  it("refuses bad values with the reason", () => {
    expect(() => parseCliArgs(["--port", "70000"], {})).toThrow(/Invalid port/);
    expect(() => parseCliArgs(["--hash-cost", "cheap"], {})).toThrow(/fast or production/);
    expect(() => parseCliArgs(["--access-token-lifetime", "30"], {})).toThrow(/at least 60/);
    expect(() => parseCliArgs(["--snapshot"], {})).toThrow(/needs a value/);
    expect(() => parseCliArgs(["--verbose"], {})).toThrow(/Unknown option --verbose/);
    expect(() => parseCliArgs(["--allow-host", "http://x.test/"], {})).toThrow(/without scheme or port/);
    expect(() => parseCliArgs(["--outbox-capacity", "0"], {})).toThrow(/whole number from 1/);
    expect(() => parseCliArgs(["--request-log-capacity", "1.5"], {})).toThrow(/whole number from 1/);
  });

  it("collects repeated --fixed-otp rules in order, splitting at the last =", () => {
    const o = parseCliArgs(["--fixed-otp", "*@example.com=123456", "--fixed-otp", " a=b@x.test = 000000 "], {});
    expect(o.fixedOtp).toEqual([
      { pattern: "*@example.com", code: "123456" },
      { pattern: "a=b@x.test", code: "000000" },
    ]);
  });

  it("refuses --fixed-otp rules with a bad pattern or a code that is not 6 digits, naming the problem", () => {
    expect(() => parseCliArgs(["--fixed-otp", "*@example.com"], {})).toThrow(/expects PATTERN=CODE/);
    expect(() => parseCliArgs(["--fixed-otp", "*@example.com=12345"], {})).toThrow(/the code "12345" is not 6 digits/);
    expect(() => parseCliArgs(["--fixed-otp", "*@example.com=abcdef"], {})).toThrow(/not 6 digits/);
    expect(() => parseCliArgs(["--fixed-otp", "=123456"], {})).toThrow(/pattern is empty/);
    expect(() => parseCliArgs(["--fixed-otp", "a@b@c=123456"], {})).toThrow(/not an address pattern/);
    expect(() => parseCliArgs(["--fixed-otp", "my addr@x.test=123456"], {})).toThrow(/not an address pattern/);
    expect(() => parseCliArgs(["--fixed-otp", "example.com=123456"], {})).toThrow(/names no address/);
    expect(() => parseCliArgs(["--fixed-otp"], {})).toThrow(/needs a value/);
  });

  it("prints env lines in both the STACK_ and NEXT_PUBLIC_STACK_ forms", () => {
    const lines = envLines("http://127.0.0.1:8102", { id: "p", publishable: "pk", secret: "sk", admin: "ak" });
    expect(lines).toContain("STACK_API_URL=http://127.0.0.1:8102");
    expect(lines).toContain("STACK_SECRET_SERVER_KEY=sk");
    expect(lines).toContain("NEXT_PUBLIC_STACK_PUBLISHABLE_CLIENT_KEY=pk");
    expect(lines.some((l) => l.startsWith("NEXT_PUBLIC_STACK_SECRET"))).toBe(false);
  });
});

describe("authsim exec", () => {
  it("takes the server's options, then the command after -- (or from its first word), options of the command its own", () => {
    expect(parseCliArgs(["exec", "--port", "0", "--", "npm", "test", "--", "--port", "9"], {})).toMatchObject({
      port: 0,
      exec: ["npm", "test", "--", "--port", "9"],
    });
    expect(parseCliArgs(["exec", "--seed", "s.json", "vitest", "run", "--watch"], {})).toMatchObject({
      seedFile: "s.json",
      watch: false,
      exec: ["vitest", "run", "--watch"],
    });
    expect(parseCliArgs(["--port", "0"], {}).exec).toBeNull();
  });

  it("refuses exec without a command, an option it does not know, and --watch without --config", () => {
    expect(() => parseCliArgs(["exec", "--port", "0"], {})).toThrow(/authsim exec needs a command/);
    expect(() => parseCliArgs(["exec", "--port", "0", "--"], {})).toThrow(/authsim exec needs a command/);
    expect(() => parseCliArgs(["exec", "--verbose", "--", "true"], {})).toThrow(/Unknown option --verbose/);
    expect(() => parseCliArgs(["--watch"], {})).toThrow(/--watch reapplies the file of --config/);
    // Outside exec, a word is not a command: it is refused by name.
    expect(() => parseCliArgs(["serve"], {})).toThrow(/Unknown option serve/);
  });
});

describe("--mock-oauth-port", () => {
  it("runs none by default; takes a port, or auto: the API port with its last two digits 14", () => {
    expect(parseCliArgs([], {}).mockOAuthPort).toBeNull();
    expect(parseCliArgs(["--mock-oauth-port", "9999"], {}).mockOAuthPort).toBe(9999);
    expect(parseCliArgs(["--mock-oauth-port", "auto"], {}).mockOAuthPort).toBe(8114);
    expect(parseCliArgs(["--port", "28102", "--mock-oauth-port", "auto"], {}).mockOAuthPort).toBe(28114);
    expect(parseCliArgs(["--mock-oauth-port", "auto"], { PORT: "29102" }).mockOAuthPort).toBe(29114);
  });

  it("refuses auto for a port not ending in 02, the API's own port, and a non-port", () => {
    expect(() => parseCliArgs(["--port", "3000", "--mock-oauth-port", "auto"], {})).toThrow(/ending in 02/);
    expect(() => parseCliArgs(["--mock-oauth-port", "8102"], {})).toThrow(/the API's port/);
    expect(() => parseCliArgs(["--mock-oauth-port", "http"], {})).toThrow(/from 1 to 65535 or auto/);
  });
});

describe("--svix-port", () => {
  it("serves Svix only at /__svix by default; takes a port, or auto: the API port with its last two digits 13", () => {
    expect(parseCliArgs([], {}).svixPort).toBeNull();
    expect(parseCliArgs(["--svix-port", "auto"], {}).svixPort).toBe(8113);
    expect(parseCliArgs(["--port", "28102", "--svix-port", "auto"], {}).svixPort).toBe(28113);
    expect(parseCliArgs(["--svix-port", "9113"], {}).svixPort).toBe(9113);
  });

  it("refuses the API's port, the mock OAuth server's, and auto for a port not ending in 02", () => {
    expect(() => parseCliArgs(["--svix-port", "8102"], {})).toThrow(/the API's port/);
    expect(() => parseCliArgs(["--svix-port", "9000", "--mock-oauth-port", "9000"], {})).toThrow(/choose two ports/);
    expect(() => parseCliArgs(["--port", "3000", "--svix-port", "auto"], {})).toThrow(/ending in 02/);
  });
});

describe("fail-closed start", () => {
  it("binds to loopback addresses without further ado", () => {
    for (const host of ["127.0.0.1", "127.3.2.1", "localhost", "::1"])
      expect(startupRefusal({ host, allowNetwork: false })).toBeNull();
  });

  it("refuses other interfaces, with the reason, unless --allow-network is given", () => {
    expect(startupRefusal({ host: "0.0.0.0", allowNetwork: false })).toMatch(
      /Refusing to listen on 0\.0\.0\.0.*--allow-network/,
    );
    expect(startupRefusal({ host: "192.168.1.5", allowNetwork: false })).not.toBeNull();
    expect(startupRefusal({ host: "0.0.0.0", allowNetwork: true })).toBeNull();
  });
});
