// Drives `earshot mcp` with the official MCP TypeScript SDK client (Client +
// StdioClientTransport): lists the tools, defines a 440 Hz sine, plays it looping and
// placed, renders 1 s and checks the measured dominant frequency and RMS; then a call that
// fails (an unknown sound) must come back as a tool result with isError, and the server
// must still answer afterwards.
//
// Usage: node mcp_client.mjs <path to the earshot binary>
import { Client } from "@modelcontextprotocol/sdk/client/index.js";
import { StdioClientTransport } from "@modelcontextprotocol/sdk/client/stdio.js";

const earshot = process.argv[2];
if (!earshot) {
  console.error("usage: node mcp_client.mjs <earshot>");
  process.exit(2);
}

let failures = 0;
function check(ok, what, detail) {
  console.log(`${ok ? "ok  " : "FAIL"} ${what}${detail === undefined ? "" : ": " + detail}`);
  if (!ok) failures++;
}

const transport = new StdioClientTransport({
  command: earshot,
  args: ["mcp"],
  stderr: "inherit",
  env: { ...process.env, ASAN_OPTIONS: "detect_leaks=1" },
});
const client = new Client({ name: "earshot-mcp-test", version: "1.0.0" });
await client.connect(transport);

check(client.getServerVersion()?.name === "earshot", "server name",
      client.getServerVersion()?.name);

const { tools } = await client.listTools();
const names = tools.map((t) => t.name);
for (const want of ["audio_clip_define", "audio_play", "audio_render_offline", "audio_bus_set",
                    "audio_status"])
  check(names.includes(want), `tool ${want} is listed`);
check(tools.every((t) => t.inputSchema?.type === "object"), "every inputSchema is an object");

function result(r) {
  // structuredContent carries the result; the text content is the same JSON.
  const fromText = JSON.parse(r.content[0].text);
  return r.structuredContent ?? fromText;
}

let r = await client.callTool({
  name: "audio_clip_define",
  arguments: { name: "tone", synth: { waveform: "sine", frequency: 440, seconds: 1 } },
});
check(!r.isError && result(r).frames === 48000, "audio_clip_define", JSON.stringify(result(r)));

r = await client.callTool({
  name: "audio_play",
  arguments: { sound: "tone", looping: true, position: [2, 0, -2] },
});
const voice = result(r).voice;
check(!r.isError && Number.isInteger(voice) && voice > 0, "audio_play gives a voice id", voice);

r = await client.callTool({ name: "audio_render_offline", arguments: { seconds: 1 } });
const m = result(r);
check(!r.isError, "audio_render_offline succeeds");
check(Math.abs(m.dominant_hz / 440 - 1) <= 0.005, "dominant_hz within 0.5 % of 440",
      m.dominant_hz);
check(m.rms.left > 0 && m.rms.right > 0, "rms > 0 in both ears", JSON.stringify(m.rms));
check(m.rms.right > m.rms.left, "placed on the right: the right ear is louder");

r = await client.callTool({ name: "audio_play", arguments: { sound: "no_such_sound" } });
check(r.isError === true, "an unknown sound is a tool result with isError");
check(JSON.parse(r.content[0].text).code === "E_NOT_FOUND", "its code is E_NOT_FOUND",
      r.content[0].text);

r = await client.callTool({ name: "audio_play", arguments: { sound: "tone", volume: "loud" } });
check(r.isError === true && JSON.parse(r.content[0].text).code === "E_BAD_PARAM",
      "a wrong type is E_BAD_PARAM", r.content[0].text);

r = await client.callTool({
  name: "audio_render_offline",
  arguments: { seconds: 0.1, path: "/tmp/../etc/earshot-escape.wav" },
});
check(r.isError === true, "a path outside the working directory is refused", r.content[0].text);

await client.ping();
r = await client.callTool({ name: "audio_status", arguments: {} });
check(!r.isError && result(r).voices.count === 1, "still serving after the errors",
      JSON.stringify(result(r).voices));

await client.close();
console.log(failures ? `${failures} failed` : "all passed");
process.exit(failures ? 1 : 0);
