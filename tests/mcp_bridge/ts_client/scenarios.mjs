// The official MCP TypeScript SDK's client driving `switchboard mcp`: every scenario of tests/mcp_bridge, one after
// another on one server, each one's outcome printed as one JSON line for the Python test to check.
//
//   node scenarios.mjs stdio PYTHON AGENTS_FILE WORKFLOWS_DIR
//   node scenarios.mjs http URL TOKEN
import { Client } from "@modelcontextprotocol/sdk/client/index.js";
import { StdioClientTransport } from "@modelcontextprotocol/sdk/client/stdio.js";
import { StreamableHTTPClientTransport } from "@modelcontextprotocol/sdk/client/streamableHttp.js";
import { ElicitRequestSchema } from "@modelcontextprotocol/sdk/types.js";

const [mode, ...rest] = process.argv.slice(2);
const say = (scenario, outcome) => process.stdout.write(JSON.stringify({ scenario, ...outcome }) + "\n");
const texts = (result) => result.content.filter((b) => b.type === "text").map((b) => b.text);

function transport(elicits) {
  if (mode === "http") {
    const [url, token] = rest;
    return new StreamableHTTPClientTransport(new URL(url), {
      requestInit: { headers: { Authorization: `Bearer ${token}` } },
    });
  }
  const [python, agents, workflows] = rest;
  return new StdioClientTransport({
    command: python,
    args: ["-m", "switchboard", "mcp", "--agents", agents, "--workflows", workflows, "--wait", elicits ? "25" : "1.5"],
    env: process.env,
    stderr: "inherit",
  });
}

async function connect(answers) {
  const capabilities = answers ? { elicitation: { form: {}, url: {} } } : {};
  const client = new Client({ name: "switchboard-ts-test", version: "1.0.0" }, { capabilities });
  const asked = [];
  if (answers) {
    client.setRequestHandler(ElicitRequestSchema, async (request) => {
      asked.push(request.params);
      const answer = answers.shift();
      if (answer === "decline" || answer === "cancel") return { action: answer };
      return { action: "accept", content: { answer } };
    });
  }
  await client.connect(transport(Boolean(answers)));
  return { client, asked, answers };
}

const person = await connect([]);
const { client } = person;
const tools = (await client.listTools()).tools.map((t) => t.name);
say("tools", { tools });

// the interviewer's two questions, answered by elicitation inside one call
person.answers.push("Ada", "test my own agent");
let progress = [];
let result = await client.callTool({ name: "ask_interviewer", arguments: { message: "interview me" } }, undefined, {
  onprogress: (p) => progress.push(p.message),
});
say("interview", { texts: texts(result), structured: result.structuredContent, asked: person.asked, progress });

// the writer's story: progress with the agent's words, the artifact as the result
progress = [];
result = await client.callTool({ name: "ask_writer", arguments: { message: "a story about owls" } }, undefined, {
  onprogress: (p) => progress.push(p.message),
});
say("writer", { texts: texts(result), structured: result.structuredContent, progress });

// the researcher, canceled from the client once it reported progress
const abort = new AbortController();
let canceled = "";
await client
  .callTool({ name: "ask_researcher", arguments: { message: "deep: tides" } }, undefined, {
    signal: abort.signal,
    onprogress: () => abort.abort("the person canceled"),
  })
  .catch((error) => (canceled = String(error)));
say("cancel", { canceled });

if (mode === "stdio") {
  // a workflow whose step asks two questions
  person.asked.length = 0;
  person.answers.push("Grace", "learn how A2A works");
  result = await client.callTool({ name: "run_interview", arguments: {} });
  say("workflow", { texts: texts(result), structured: result.structuredContent, asked: person.asked });

  // a host that cannot elicit: the question comes back, continue_task answers it
  const plain = (await connect(null)).client;
  const first = await plain.callTool({ name: "ask_interviewer", arguments: { message: "interview me" } });
  const task = first.structuredContent.taskId;
  await plain.callTool({ name: "continue_task", arguments: { agent: "interviewer", taskId: task, answer: "Ada" } });
  const done = await plain.callTool({
    name: "continue_task",
    arguments: { agent: "interviewer", taskId: task, answer: "1" },
  });
  say("continue", { first: first.structuredContent, texts: texts(done), state: done.structuredContent.state });
  await plain.close();

  // MCP tasks: the interview as a task (its questions asked through tasks/result), the researcher's task canceled
  person.asked.length = 0;
  person.answers.push("Ada", "just looking around");
  const seen = [];
  let outcome = null;
  for await (const message of client.experimental.tasks.callToolStream(
    { name: "ask_interviewer", arguments: { message: "interview me" } },
    undefined,
    { task: { ttl: 60000 } },
  )) {
    if (message.type === "taskCreated" || message.type === "taskStatus") seen.push(message.task.status);
    if (message.type === "result") outcome = message.result;
    if (message.type === "error") outcome = { error: String(message.error) };
  }
  say("task", { seen, texts: outcome.content ? texts(outcome) : [], outcome, asked: person.asked.length });

  let created = null;
  for await (const message of client.experimental.tasks.callToolStream(
    { name: "ask_researcher", arguments: { message: "deep: tides" } },
    undefined,
    { task: { ttl: 60000 } },
  )) {
    if (message.type === "taskCreated") {
      created = message.task;
      break;
    }
  }
  // once the researcher's own words show on the task, it has a task at the agent to cancel
  while (!(await client.experimental.tasks.getTask(created.taskId)).statusMessage) {
    await new Promise((resolve) => setTimeout(resolve, 100));
  }
  const cancelled = await client.experimental.tasks.cancelTask(created.taskId);
  const after = await client.experimental.tasks.getTask(created.taskId);
  say("task-cancel", { created, cancelled, after });
}
await client.close();
