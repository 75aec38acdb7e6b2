// The MCP App's browser test, run by scripts/mcp-app/run.sh:
//
//   node test.mjs <avenir-mcp binary> <screenshot directory for docs> <work directory>
//
// 1. Asks the built server itself (avenir-mcp --demo over stdio, a client declaring the
//    io.modelcontextprotocol/ui extension) for the tool list, the ui:// resource and the demo's
//    real answers: nothing here is a copy.
// 2. Serves host.html and the resource's HTML (with the extension's default CSP) on 127.0.0.1,
//    opens them in Debian's Chromium through playwright-core, and lets host.html speak the
//    extension's protocol with the view.
// 3. Asserts the drawn chart's elements, takes the screenshots, and checks that nothing left
//    localhost and the page logged no error (a CSP violation is one).
// 4. Opens the confirmation page a write sends a URL-mode client to, and answers it there.
import { spawn } from "node:child_process";
import { mkdtempSync, readFileSync, rmSync } from "node:fs";
import { createServer } from "node:http";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { fileURLToPath } from "node:url";
import assert from "node:assert/strict";
import { createRequire } from "node:module";

const [binary, docsDir, workDir] = process.argv.slice(2);
if (!binary || !docsDir || !workDir) {
  console.error("usage: node test.mjs <avenir-mcp binary> <docs directory> <work directory>");
  process.exit(2);
}
const require = createRequire(join(workDir, "package.json"));
const { chromium } = require("playwright-core");
const here = fileURLToPath(new URL(".", import.meta.url));

const CHARTS_URI = "ui://avenir-mcp/charts.html";
const MIME = "text/html;profile=mcp-app";
// The extension's default CSP when a resource declares no ui.csp (SEP-1865, "Host Behavior"),
// with the directives its CSP construction adds for no declared domains.
const DEFAULT_CSP = [
  "default-src 'none'",
  "script-src 'self' 'unsafe-inline'",
  "style-src 'self' 'unsafe-inline'",
  "img-src 'self' data:",
  "media-src 'self' data:",
  "connect-src 'none'",
  "frame-src 'none'",
  "object-src 'none'",
  "base-uri 'self'",
].join("; ");
const CHROMIUM_ARGS = [
  "--headless",
  "--no-sandbox",
  "--disable-gpu",
  "--disable-quic",
  "--no-first-run",
  "--disable-background-networking",
  "--disable-component-update",
  "--disable-sync",
];

// ---- the server, over stdio ---------------------------------------------------------------------
// `extraEnv`: variables added; `onServerMessage`: called with what the server sends unasked (its
// requests, answered by writing to the child's stdin, and its notifications).
function startServer(extraEnv = {}, onServerMessage = () => {}) {
  const env = { ...process.env };
  for (const name of ["AVENIR_MCP_WRITE", "AVENIR_MCP_REQUIRE_ELICITATION", "AVENIR_MCP_CONFIRM", "AVENIR_MCP_TRANSPORT", "AVENIR_MCP_CACHE", "XDG_STATE_HOME"]) {
    delete env[name];
  }
  // Every toolset: the charts are in `analysis`, which the default leaves out.
  env.AVENIR_MCP_TOOLSETS = "all";
  Object.assign(env, extraEnv);
  const child = spawn(binary, ["--demo"], { stdio: ["pipe", "pipe", "pipe"], env });
  let stderr = "";
  child.stderr.on("data", (chunk) => { stderr += chunk; });
  let buffer = "";
  const waiting = new Map();
  child.stdout.setEncoding("utf8");
  child.stdout.on("data", (chunk) => {
    buffer += chunk;
    let end;
    while ((end = buffer.indexOf("\n")) >= 0) {
      const line = buffer.slice(0, end).trim();
      buffer = buffer.slice(end + 1);
      if (!line) continue;
      const message = JSON.parse(line);
      if (message.method) {
        onServerMessage(message, child);
        continue;
      }
      const resolve = waiting.get(message.id);
      if (resolve) {
        waiting.delete(message.id);
        resolve(message);
      }
    }
  });
  let nextId = 0;
  const request = (method, params) => new Promise((resolve, reject) => {
    const id = ++nextId;
    waiting.set(id, (message) => (message.error
      ? reject(new Error(`${method}: ${JSON.stringify(message.error)}`))
      : resolve(message.result)));
    child.stdin.write(JSON.stringify({ jsonrpc: "2.0", id, method, params }) + "\n");
  });
  child.on("exit", (code) => {
    for (const resolve of waiting.values()) resolve({ error: { message: `avenir-mcp exited (${code}): ${stderr}` } });
    waiting.clear();
  });
  const notify = (method, params) => child.stdin.write(JSON.stringify({ jsonrpc: "2.0", method, params }) + "\n");
  return { child, request, notify };
}

async function askServer() {
  const server = startServer();
  try {
    const init = await server.request("initialize", {
      protocolVersion: "2025-11-25",
      capabilities: { extensions: { "io.modelcontextprotocol/ui": { mimeTypes: [MIME] } } },
      clientInfo: { name: "avenir-mcp-app-test", version: "0" },
    });
    assert.deepEqual(init.capabilities.extensions, { "io.modelcontextprotocol/ui": {} }, "the server declares the extension");
    server.notify("notifications/initialized", {});

    const { tools } = await server.request("tools/list", {});
    const withView = tools.filter((t) => t._meta && t._meta.ui).map((t) => t.name).sort();
    assert.deepEqual(withView, ["forecast_balance", "get_age_of_money", "get_net_worth_trend", "get_spending_trends"]);
    const forecastTool = tools.find((t) => t.name === "forecast_balance");
    assert.equal(forecastTool._meta.ui.resourceUri, CHARTS_URI);

    const { resources } = await server.request("resources/list", {});
    assert.ok(resources.some((r) => r.uri === CHARTS_URI && r.mimeType === MIME), "the view is listed");
    const read = await server.request("resources/read", { uri: forecastTool._meta.ui.resourceUri });
    assert.equal(read.contents.length, 1);
    assert.equal(read.contents[0].mimeType, MIME);
    const html = read.contents[0].text;
    assert.ok(html.startsWith("<!DOCTYPE html>"));

    const call = async (name, args) => {
      const result = await server.request("tools/call", { name, arguments: args });
      assert.notEqual(result.isError, true, `${name}: ${JSON.stringify(result.content)}`);
      return { name, tool: tools.find((t) => t.name === name), args, result };
    };
    const calls = {
      forecast: await call("forecast_balance", { until: "2027-03" }),
      // The demo's forecast with a tax bill the balance cannot take: a shortfall to mark.
      shortfall: await call("forecast_balance", {
        until: "2027-03",
        one_offs: [{ date: "2026-12-15", amount: -15000, label: "tax bill" }],
      }),
      netWorth: await call("get_net_worth_trend", {}),
      spending: await call("get_spending_trends", { months_count: 4 }),
      age: await call("get_age_of_money", {}),
      // Refused (beyond the 24 months a forecast reaches): an error result.
      refused: {
        name: "forecast_balance",
        tool: forecastTool,
        args: { until: "2030-01" },
        result: await server.request("tools/call", { name: "forecast_balance", arguments: { until: "2030-01" } }),
      },
    };
    return { html, calls };
  } finally {
    server.child.kill();
  }
}

// ---- the host page and the view, on 127.0.0.1 ---------------------------------------------------
function serve(html) {
  const hostPage = readFileSync(join(here, "host.html"), "utf8");
  const server = createServer((req, res) => {
    if (req.url === "/") {
      res.writeHead(200, { "content-type": "text/html; charset=utf-8" });
      res.end(hostPage);
    } else if (req.url === "/app.html") {
      res.writeHead(200, { "content-type": "text/html; charset=utf-8", "content-security-policy": DEFAULT_CSP });
      res.end(html);
    } else {
      res.writeHead(404);
      res.end();
    }
  });
  return new Promise((resolve) => server.listen(0, "127.0.0.1", () => resolve(server)));
}

const hostContext = (theme, tool) => ({
  theme,
  displayMode: "inline",
  availableDisplayModes: ["inline"],
  containerDimensions: { width: 720, maxHeight: 1200 },
  locale: "en-US",
  timeZone: "UTC",
  platform: "web",
  toolInfo: { tool },
  styles: {
    variables: {
      "--color-background-primary": "light-dark(#ffffff, #171717)",
      "--color-text-primary": "light-dark(#171717, #fafafa)",
    },
  },
});

const monthLabel = (month) => {
  const [year, number] = month.split("-").map(Number);
  return new Intl.DateTimeFormat("en-US", { month: "short", year: "numeric", timeZone: "UTC" })
    .format(new Date(Date.UTC(year, number - 1, 1)));
};

async function main() {
  const { html, calls } = await askServer();
  const http = await serve(html);
  const origin = `http://127.0.0.1:${http.address().port}`;
  const profile = mkdtempSync(join(tmpdir(), "avenir-mcp-app-chromium-"));
  const context = await chromium.launchPersistentContext(profile, {
    executablePath: "/usr/bin/chromium",
    headless: true,
    args: CHROMIUM_ARGS,
    viewport: { width: 760, height: 1000 },
    deviceScaleFactor: 1,
  });
  const offsite = [];
  await context.route("**/*", (route) => {
    const url = new URL(route.request().url());
    if (url.hostname === "127.0.0.1") return route.continue();
    offsite.push(url.href);
    return route.abort();
  });
  const problems = [];
  let checks = 0;
  const ok = (condition, what) => { assert.ok(condition, what); checks += 1; };
  const equal = (actual, expected, what) => { assert.deepEqual(actual, expected, what); checks += 1; };

  // Open the view for one call; give back the page and the view's frame, drawn.
  async function open(call, theme, drawn = "svg#chart-svg") {
    const page = await context.newPage();
    page.on("console", (m) => { if (m.type() === "error" || m.type() === "warning") problems.push(`${call.name}: console ${m.type()}: ${m.text()}`); });
    page.on("pageerror", (e) => problems.push(`${call.name}: page error: ${e.message}`));
    await page.goto(origin + "/");
    await page.evaluate(([args, result, ctx]) => window.openView(args, result, ctx),
      [call.args, call.result, hostContext(theme, call.tool)]);
    const view = page.frameLocator("iframe");
    await view.locator(drawn).waitFor({ state: "visible", timeout: 30000 });
    // Drawn: the host has sized the iframe to the view's full height (size-changed).
    const height = await view.locator("html").evaluate((root) => Math.ceil(root.scrollHeight));
    await page.waitForFunction((h) => document.querySelector("iframe").style.height === h + "px", height, { timeout: 30000 });
    return { page, view };
  }
  const texts = (locator) => locator.evaluateAll((nodes) => nodes.map((n) => n.textContent));
  const attrs = (locator, name) => locator.evaluateAll((nodes, a) => nodes.map((n) => n.getAttribute(a)), name);

  // ---- the demo's forecast, light --------------------------------------------------------------
  {
    const { page, view } = await open(calls.forecast, "light");
    const answer = calls.forecast.result.structuredContent;
    const months = answer.months.map((m) => m.month);
    ok(months.length >= 6, "the forecast has several months");

    // The protocol as the view spoke it.
    const log = await page.evaluate(() => window.hostLog);
    equal(log[0].method, "ui/initialize", "the view starts with ui/initialize");
    equal(log[0].params.protocolVersion, "2026-01-26", "the extension's version");
    ok(log[0].params.appInfo && log[0].params.appCapabilities, "appInfo and appCapabilities");
    equal(log[1].method, "ui/notifications/initialized", "then initialized");
    ok(log.some((m) => m.method === "ui/notifications/size-changed" && m.params.height > 200), "it reports its size");

    equal(await view.locator("#title").textContent(), "Balance forecast", "the title");
    equal(await view.locator("#summary").textContent(), answer.message, "the answer's message");
    equal(await view.locator("#subtitle").textContent(), "Accounts: " + answer.accounts.join(", "), "the accounts");
    equal(await view.locator("svg#chart-svg").getAttribute("data-chart"), "forecast", "the forecast chart");

    // One path with a point for every month, in order, higher balances drawn higher.
    const line = view.locator("path[data-series=end]");
    equal(await line.count(), 1, "one line of month-end balances");
    const d = await line.getAttribute("d");
    equal((d.match(/[ML]/g) || []).length, months.length, "a vertex for every month");
    equal(await line.getAttribute("data-points"), String(months.length), "data-points");
    const points = view.locator("circle[data-series=end]");
    equal(await attrs(points, "data-month"), months, "a point for every month, in order");
    const cy = (await attrs(points, "cy")).map(Number);
    const cx = (await attrs(points, "cx")).map(Number);
    for (let i = 1; i < months.length; i += 1) {
      ok(cx[i] > cx[i - 1], "months left to right");
      const rise = answer.months[i].end - answer.months[i - 1].end;
      ok(Math.sign(cy[i - 1] - cy[i]) === Math.sign(rise), `month ${months[i]}: drawn ${rise > 0 ? "higher" : "lower"}`);
    }
    equal(await view.locator("circle[data-series=lowest]").count(), months.length, "the lowest point of every month");

    // The axes: months by name, amounts in the plan's format (EUR, the symbol after).
    const xLabels = await texts(view.locator("g.x-axis text"));
    ok(xLabels.length >= months.length / 2, "month labels");
    equal(xLabels[0], monthLabel(months[0]), "the first month's label");
    for (const label of xLabels) ok(months.map(monthLabel).includes(label), `month label ${label}`);
    const yLabels = await texts(view.locator("g.y-axis text"));
    ok(yLabels.length >= 3, "amount labels");
    for (const label of yLabels) ok(/^-?\d{1,3}(,\d{3})*€$/.test(label), `amount label ${label} in the plan's format`);
    ok(yLabels.includes("0€"), "zero is on the axis");
    equal(await view.locator("text.y-title").textContent(), "EUR", "the axis names the currency");
    ok((await view.locator("circle[data-series=end] title").first().textContent()).endsWith(
      money(answer.months[0].end)), "a point's label in the plan's format");

    // No shortfall in the demo's own forecast: nothing marked.
    equal(answer.first_shortfall, null, "the demo's forecast stays above zero");
    equal(await view.locator("[data-role=shortfall]").count(), 0, "no shortfall mark");

    // The host's light theme and its variables.
    equal(await view.locator("body").evaluate((b) => getComputedStyle(b).backgroundColor), "rgb(255, 255, 255)", "light background");
    equal(await view.locator("#title").evaluate((t) => getComputedStyle(t).color), "rgb(23, 23, 23)", "the host's text colour");
    await page.locator("iframe").screenshot({ path: join(docsDir, "mcp-app-forecast.png") });

    // The host turns dark: the view follows without a new result.
    await page.evaluate(() => window.changeContext({ theme: "dark" }));
    await view.locator("html[data-theme=dark]").waitFor({ timeout: 30000 });
    equal(await view.locator("body").evaluate((b) => getComputedStyle(b).backgroundColor), "rgb(23, 23, 23)", "dark background");
    equal(await view.locator("#title").evaluate((t) => getComputedStyle(t).color), "rgb(250, 250, 250)", "dark text");
    equal(await view.locator("circle[data-series=end]").count(), months.length, "still drawn");
    await page.locator("iframe").screenshot({ path: join(docsDir, "mcp-app-forecast-dark.png") });
    await page.close();
  }

  // ---- the forecast with a shortfall -----------------------------------------------------------
  {
    const { page, view } = await open(calls.shortfall, "light");
    const answer = calls.shortfall.result.structuredContent;
    ok(typeof answer.first_shortfall === "string", "this forecast goes below zero");
    const mark = view.locator("[data-role=shortfall]");
    equal(await mark.count(), 1, "one shortfall mark");
    equal(await mark.getAttribute("data-month"), answer.first_shortfall, "on the first month below zero");
    equal(await mark.locator("text").textContent(), "Shortfall: " + monthLabel(answer.first_shortfall), "labelled");
    equal(await view.locator("[data-role=shortfall-point]").count(), 1, "its lowest point marked");
    const yLabels = await texts(view.locator("g.y-axis text"));
    ok(yLabels.some((l) => l.startsWith("-")), "negative amounts on the axis");
    ok((await view.locator("#note").textContent()).includes(monthLabel(answer.first_shortfall)), "the note names the month");
    await page.locator("iframe").screenshot({ path: join(workDir, "forecast-shortfall.png") });
    await page.close();
  }

  // ---- the three other charts ------------------------------------------------------------------
  for (const [key, chart, title, series, unit] of [
    ["netWorth", "net_worth", "Net worth", "net_worth", "EUR"],
    ["spending", "spending", "Spending by category", "category-0", "EUR"],
    ["age", "age", "Age of Money", "days", "days"],
  ]) {
    const { page, view } = await open(calls[key], "light");
    const answer = calls[key].result.structuredContent;
    equal(await view.locator("#title").textContent(), title, `${key}: title`);
    equal(await view.locator("svg#chart-svg").getAttribute("data-chart"), chart, `${key}: chart`);
    const expected = key === "spending"
      ? Math.max(...Object.values(answer.categories).map((t) => t.months.length))
      : answer.months.filter((m) => (key === "age" ? m.days !== null : true)).length;
    equal(await view.locator(`circle[data-series=${series}]`).count(), expected, `${key}: a point for every value`);
    equal(await view.locator("text.y-title").textContent(), unit, `${key}: the amount axis`);
    if (key === "spending") {
      const names = await texts(view.locator("#legend li"));
      const all = Object.values(answer.categories).map((t) => `${t.group} / ${t.name}`);
      ok(names.length > 0 && names.every((n) => all.includes(n)), "spending: categories named as the answer names them");
    }
    await page.locator("iframe").screenshot({ path: join(workDir, `${chart}.png`) });
    await page.close();
  }

  // ---- a host that passes only the text content ---------------------------------------------
  {
    const { structuredContent, ...textOnly } = calls.netWorth.result;
    const { page, view } = await open({ ...calls.netWorth, result: textOnly }, "light");
    equal(await view.locator("svg#chart-svg").getAttribute("data-chart"), "net_worth", "drawn from the text content");
    equal(await view.locator("circle[data-series=net_worth]").count(), structuredContent.months.length, "every month");
    await page.close();
  }

  // ---- an error result: its message, as text -----------------------------------------------
  {
    const result = calls.refused.result;
    ok(result.isError === true, "a forecast beyond 24 months is refused");
    const { page, view } = await open(calls.refused, "light", "#note.error");
    equal(await view.locator("#title").textContent(), "The tool answered an error", "error title");
    equal(await view.locator("#note").textContent(), result.content.map((c) => c.text).join("\n"), "the message");
    equal(await view.locator("svg").count(), 0, "nothing drawn");
    await page.close();
  }

  await confirmationPage(context, equal, ok);

  await context.close();
  http.close();
  rmSync(profile, { recursive: true, force: true });
  equal(offsite, [], "nothing left localhost");
  equal(problems, [], "no console error or page error (a CSP violation is one)");
  console.log(`mcp-app: ${checks} checks passed; screenshots in ${docsDir} (mcp-app-forecast.png, mcp-app-forecast-dark.png) and ${workDir}`);
}

// The confirmation page (URL-mode elicitation): a client declaring it asks for a delete; the page
// the server sends it to is opened in Chromium, shows the preview, cannot be framed, and its yes
// applies the delete once.
async function confirmationPage(context, equal, ok) {
  let opened = null;
  const completed = [];
  const state = mkdtempSync(join(tmpdir(), "avenir-mcp-page-state-"));
  const server = startServer({ AVENIR_MCP_WRITE: "1", XDG_STATE_HOME: state }, (message, child) => {
    if (message.method === "elicitation/create") {
      opened = message.params;
      child.stdin.write(JSON.stringify({ jsonrpc: "2.0", id: message.id, result: { action: "accept" } }) + "\n");
    } else if (message.method === "notifications/elicitation/complete") {
      completed.push(message.params.elicitationId);
    }
  });
  try {
    await server.request("initialize", {
      protocolVersion: "2025-11-25",
      capabilities: { elicitation: { form: {}, url: {} } },
      clientInfo: { name: "avenir-mcp-page-test", version: "0" },
    });
    server.notify("notifications/initialized", {});
    const found = await server.request("tools/call", { name: "find_transactions", arguments: { since_date: "2026-09-19", until_date: "2026-09-19" } });
    const target = found.structuredContent.transactions.find((t) => t.amount === -71.86);
    ok(target, "the demo's MARKET FRESH -71.86 of 2026-09-19");
    const deleting = server.request("tools/call", { name: "delete_transactions", arguments: { transaction_ids: [target.transaction_id] } });
    for (let i = 0; i < 100 && !opened; i += 1) await new Promise((r) => setTimeout(r, 50));
    equal(opened && opened.mode, "url", "the server asks through a URL");
    ok(/^http:\/\/127\.0\.0\.1:\d+\/confirm\/[A-Za-z0-9_-]{43}$/.test(opened.url), `a loopback page with an unguessable path: ${opened.url}`);
    const page = await context.newPage();
    const response = await page.goto(opened.url);
    equal(response.headers()["x-frame-options"], "DENY", "the page cannot be framed");
    ok(response.headers()["content-security-policy"].includes("frame-ancestors 'none'"), "nor by CSP");
    const preview = await page.locator("pre").textContent();
    ok(preview.startsWith("Delete 1 transaction(s)?") && preview.includes("71.86"), `the preview: ${preview}`);
    await page.getByRole("button", { name: "Yes, apply these changes" }).click();
    await page.locator("h1", { hasText: "Answer received" }).waitFor({ timeout: 30000 });
    const result = await deleting;
    equal(result.structuredContent && result.structuredContent.status, "applied", "the yes on the page applied it");
    equal(completed, [opened.elicitationId], "the client is told the page is done");
    const again = await page.goto(opened.url).catch(() => null);
    ok(!again || again.status() === 404, "the page answers once");
    await page.close();
  } finally {
    server.child.kill();
    rmSync(state, { recursive: true, force: true });
  }
}

// An amount as the view writes it for the demo plan (EUR: "1,234.56€").
function money(value) {
  const cents = Math.round(Math.abs(value) * 100);
  const whole = String(Math.floor(cents / 100)).replace(/\B(?=(\d{3})+(?!\d))/g, ",");
  return (value < 0 && cents !== 0 ? "-" : "") + whole + "." + String(cents % 100).padStart(2, "0") + "€";
}

main().catch((error) => {
  console.error("mcp-app: FAILED:", error && error.stack ? error.stack : error);
  process.exit(1);
});
