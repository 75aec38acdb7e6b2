// Starts an unpacked bundle the way an MCPB host does and lists its tools: the launch command and
// environment come from the official package's getMcpConfigForManifest (the code Claude Desktop
// uses to turn a manifest and the person's settings into a server configuration), for each value
// of the "Allow changes" setting and of "Toolsets". Checks that the server starts, that with 0 it
// lists only read tools, with 1 and toolsets "all" every tool the manifest declares, with the
// default toolsets a part of them, and that the token setting reached it.
//
//   node scripts/mcpb/host-check.mjs MCPB_PACKAGE_DIR UNPACKED_BUNDLE_DIR
//
// No network: the token is a placeholder and AVENIR_MCP_YNAB_URL points at a closed loopback
// port; listing tools sends nothing to YNAB.
import { spawn } from "node:child_process";
import { readFileSync, mkdtempSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { pathToFileURL } from "node:url";

const [pkg, bundle] = process.argv.slice(2);
const { getMcpConfigForManifest } = await import(
  pathToFileURL(join(pkg, "node_modules/@anthropic-ai/mcpb/dist/index.js")).href
);
const manifest = JSON.parse(readFileSync(join(bundle, "manifest.json"), "utf8"));
const declared = manifest.tools.map((t) => t.name);

function fail(why) {
  console.error(`mcpb host check: ${why}`);
  process.exit(1);
}

// `toolsets`: the "Toolsets" setting, or undefined for the manifest's default.
async function listTools(allowWrites, toolsets) {
  const config = await getMcpConfigForManifest({
    manifest,
    extensionPath: bundle,
    systemDirs: { HOME: tmpdir(), DESKTOP: tmpdir(), DOCUMENTS: tmpdir(), DOWNLOADS: tmpdir() },
    userConfig: {
      ynab_api_key: "placeholder-token",
      allow_writes: allowWrites,
      ...(toolsets === undefined ? {} : { toolsets }),
    },
    pathSeparator: "/",
  });
  if (!config) fail("the host found the configuration incomplete");
  if (config.env.YNAB_API_KEY !== "placeholder-token") fail("the token setting did not reach YNAB_API_KEY");
  const home = mkdtempSync(join(tmpdir(), "avenir-mcpb-"));
  const child = spawn(config.command, config.args, {
    env: {
      PATH: process.env.PATH,
      HOME: home,
      XDG_STATE_HOME: home,
      AVENIR_MCP_YNAB_URL: "http://127.0.0.1:9/v1",
      ...config.env,
    },
    stdio: ["pipe", "pipe", "ignore"],
  });
  const answers = new Map();
  let buffered = "";
  child.stdout.on("data", (chunk) => {
    buffered += chunk;
    let newline;
    while ((newline = buffered.indexOf("\n")) >= 0) {
      const message = JSON.parse(buffered.slice(0, newline));
      buffered = buffered.slice(newline + 1);
      if (message.id !== undefined) answers.get(message.id)?.(message);
    }
  });
  const ask = (id, method, params) =>
    new Promise((resolve) => {
      answers.set(id, resolve);
      child.stdin.write(JSON.stringify({ jsonrpc: "2.0", id, method, params }) + "\n");
    });
  const exited = new Promise((resolve) => child.on("exit", (code) => resolve(`exited with ${code}`)));
  const answer = await Promise.race([
    (async () => {
      await ask(1, "initialize", {
        protocolVersion: "2025-11-25",
        capabilities: {},
        clientInfo: { name: "mcpb-host-check", version: "0" },
      });
      child.stdin.write(JSON.stringify({ jsonrpc: "2.0", method: "notifications/initialized" }) + "\n");
      return ask(2, "tools/list", {});
    })(),
    exited,
  ]);
  child.kill();
  if (typeof answer === "string") fail(`the bundled server ${answer} before listing its tools`);
  if (answer.result.nextCursor) fail("tools/list has a second page this check does not read");
  return answer.result.tools.map((t) => t.name);
}

const readOnly = await listTools(0, "all");
const all = await listTools(1, "all");
const byDefault = await listTools(1, undefined);
if (!(byDefault.length > 0 && byDefault.length < all.length && byDefault.every((t) => all.includes(t))))
  fail(`with the default toolsets the server lists ${byDefault.length} of its ${all.length} tools`);
if (JSON.stringify(all) !== JSON.stringify(declared))
  fail(
    `with writes allowed the server lists ${all.length} tools, the manifest declares ${declared.length}` +
      " (a build with the cargo feature conformance lists its fixtures too: cargo build -p avenir-mcp)",
  );
if (!(readOnly.length > 0 && readOnly.length < all.length && readOnly.every((t) => all.includes(t))))
  fail(`read-only, the server lists ${readOnly.length} of its ${all.length} tools`);
console.log(
  `mcpb host check: started as a host would; ${readOnly.length} tools read-only, ${byDefault.length} with the default toolsets, ${all.length} (the manifest's) with "Allow changes" = 1 and toolsets all`,
);
