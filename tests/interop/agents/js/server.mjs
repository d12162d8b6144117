// Reference A2A server on the official JavaScript SDK (@a2a-js/sdk), replaying script.mjs (the port of
// ../script.py that the Python reference servers replay).
//
//     node server.mjs [--port N] [--mode v10|v03compat|rest|v03rest|grpc|v03grpc] [--api-key KEY] [--exit-on-stdin-eof]
//
// JSON-RPC at the base URL and HTTP+JSON (REST) at /rest: v1.0 natively, v0.3 through the SDK's legacyCompat
// (chosen by the A2A-Version header); in the gRPC modes also gRPC on a port of its own (the SDK's grpcService and
// legacyGrpcService, lf.a2a.v1 and a2a.v1). Every mode serves all of its HTTP; the card says what a client choosing
// by it speaks (the first interface it can):
// --mode v10 (default): JSON-RPC and REST at 1.0, then both again at 0.3.
// --mode v03compat: only the 0.3 interfaces, JSON-RPC first.
// --mode rest: REST first, then JSON-RPC, at 1.0, then both again at 0.3.
// --mode v03rest: only the 0.3 interfaces, REST first.
// --mode grpc: gRPC first, then JSON-RPC and REST, at 1.0, then all three again at 0.3.
// --mode v03grpc: only the 0.3 interfaces, gRPC first.
// Prints `READY http://127.0.0.1:PORT/` (and ` grpc=127.0.0.1:PORT` in the gRPC modes) once it accepts
// connections, on 127.0.0.1 only.

import { parseArgs } from 'node:util';
import express from 'express';
import * as grpc from '@grpc/grpc-js';
import { AGENT_CARD_PATH, Role, TaskState } from '@a2a-js/sdk';
import { duplicateInterfacesForLegacy } from '@a2a-js/sdk/compat/v0_3';
import { AgentEvent, DefaultRequestHandler, InMemoryTaskStore } from '@a2a-js/sdk/server';
import { agentCardHandler, jsonRpcHandler, restHandler, UserBuilder } from '@a2a-js/sdk/server/express';
import { A2AService, grpcService } from '@a2a-js/sdk/server/grpc';
import { LegacyA2AService, legacyGrpcService } from '@a2a-js/sdk/compat/v0_3/server/grpc';
import * as script from './script.mjs';

const MODES = ['v10', 'v03compat', 'rest', 'v03rest', 'grpc', 'v03grpc'];
const API_KEY_HEADER = 'X-API-Key';
const STATES = {
  [script.WORKING]: TaskState.TASK_STATE_WORKING,
  [script.INPUT_REQUIRED]: TaskState.TASK_STATE_INPUT_REQUIRED,
  [script.AUTH_REQUIRED]: TaskState.TASK_STATE_AUTH_REQUIRED,
  [script.COMPLETED]: TaskState.TASK_STATE_COMPLETED,
  [script.FAILED]: TaskState.TASK_STATE_FAILED,
  [script.REJECTED]: TaskState.TASK_STATE_REJECTED,
  [script.CANCELED]: TaskState.TASK_STATE_CANCELED,
};
const STATE_NAMES = Object.fromEntries(Object.entries(STATES).map(([name, value]) => [value, name]));
const TERMINAL = new Set([script.COMPLETED, script.FAILED, script.REJECTED, script.CANCELED]);

function toScriptPart(part) {
  const content = part.content ?? { $case: 'text', value: '' };
  const file = (extra) => ({ file: { name: part.filename || null, mediaType: part.mediaType || null, ...extra } });
  switch (content.$case) {
    case 'raw':
      return file({ raw: Buffer.from(content.value) });
    case 'url':
      return file({ url: content.value });
    case 'data':
      return { data: content.value };
    default:
      return { text: content.value };
  }
}

function toSdkPart(part) {
  const base = { metadata: {}, filename: '', mediaType: '' };
  if ('text' in part) return { ...base, content: { $case: 'text', value: part.text } };
  if ('data' in part) return { ...base, mediaType: 'application/json', content: { $case: 'data', value: part.data } };
  const { name, mediaType, raw, url } = part.file;
  const content = raw !== undefined ? { $case: 'raw', value: raw } : { $case: 'url', value: url };
  return { ...base, filename: name ?? '', mediaType: mediaType ?? '', content };
}

function agentMessage(parts, taskId, contextId) {
  return {
    messageId: crypto.randomUUID(),
    role: Role.ROLE_AGENT,
    parts: parts.map(toSdkPart),
    taskId,
    contextId,
    metadata: {},
    extensions: [],
    referenceTaskIds: [],
  };
}

/** Replays script.plan() onto the SDK's event bus. */
class ScriptedExecutor {
  canceled = new Set();
  contexts = new Map(); // taskId -> contextId, for the cancel (which gets only the task id)

  async execute(requestContext, bus) {
    const { taskId, contextId, task, userMessage } = requestContext;
    const taskState = task ? (STATE_NAMES[task.status?.state] ?? null) : null;
    const steps = [...script.plan({ parts: userMessage.parts.map(toScriptPart), taskState })];
    this.contexts.set(taskId, contextId);
    // The SDK wants every turn to open with a Task or a Message, follow-ups included (script.py's NewTask covers
    // only the first turn): a follow-up that goes on in its task opens with the task as it stands.
    if (task && !steps.some((step) => 'reply' in step)) bus.publish(AgentEvent.task(task));
    return this.run(steps, requestContext, bus);
  }

  async run(steps, { taskId, contextId, userMessage }, bus) {
    const emit = (step) => {
      if ('reply' in step) {
        bus.publish(AgentEvent.message(agentMessage(step.reply, '', contextId))); // a direct reply belongs to no task
      } else if ('newTask' in step) {
        const submitted = { state: TaskState.TASK_STATE_SUBMITTED, message: undefined, timestamp: now() };
        bus.publish(
          AgentEvent.task({ id: taskId, contextId, status: submitted, artifacts: [], history: [userMessage], metadata: {} })
        );
      } else if ('status' in step) {
        const [state, text] = step.status;
        this.publishStatus(bus, taskId, contextId, state, text);
      } else if ('artifact' in step) {
        const { artifactId, name, parts, append, lastChunk } = step.artifact;
        const artifact = { artifactId, name, description: '', parts: parts.map(toSdkPart), metadata: {}, extensions: [] };
        bus.publish(AgentEvent.artifactUpdate({ taskId, contextId, artifact, append, lastChunk, metadata: {} }));
      }
    };
    try {
      await script.perform(steps, emit, () => this.canceled.has(taskId));
    } finally {
      this.canceled.delete(taskId);
    }
  }

  publishStatus(bus, taskId, contextId, state, text) {
    const message = agentMessage([{ text }], taskId, contextId);
    const status = { state: STATES[state], message, timestamp: now() };
    bus.publish(AgentEvent.statusUpdate({ taskId, contextId, status, metadata: {} }));
    if (TERMINAL.has(state)) this.contexts.delete(taskId);
  }

  // The SDK waits for the canceled status on the bus, so publish it here; the flag stops the running loop first.
  cancelTask = async (taskId, bus) => {
    this.canceled.add(taskId);
    this.publishStatus(bus, taskId, this.contexts.get(taskId) ?? '', script.CANCELED, script.CANCEL_TEXT);
  };
}

function now() {
  return new Date().toISOString();
}

/** The public card and the extended card (public + the "secret" skill). */
function buildCards(url, mode, apiKey, grpcTarget) {
  const jsonRpc = { url, protocolBinding: 'JSONRPC', tenant: '', protocolVersion: '1.0' };
  const rest = { url: `${url}rest`, protocolBinding: 'HTTP+JSON', tenant: '', protocolVersion: '1.0' };
  const overGrpc = { url: grpcTarget, protocolBinding: 'GRPC', tenant: '', protocolVersion: '1.0' };
  const v10 = mode.endsWith('grpc') ? [overGrpc, jsonRpc, rest] : mode.endsWith('rest') ? [rest, jsonRpc] : [jsonRpc, rest];
  const both = duplicateInterfacesForLegacy(v10, v10.map((i) => i.protocolBinding));
  const legacyOnly = both.filter((i) => i.protocolVersion !== '1.0');
  const interfaces = { v10: both, rest: both, grpc: both, v03compat: legacyOnly, v03rest: legacyOnly, v03grpc: legacyOnly }[mode];
  const skill = {
    id: script.SKILL_ID,
    name: script.SKILL_NAME,
    description: script.SKILL_DESCRIPTION,
    tags: script.SKILL_TAGS,
    examples: script.SKILL_EXAMPLES,
    inputModes: [],
    outputModes: [],
    securityRequirements: [],
  };
  const card = {
    name: `${script.AGENT_NAME} (js sdk, ${mode})`,
    description: script.AGENT_DESCRIPTION,
    supportedInterfaces: interfaces,
    provider: { organization: 'a2a-switchboard tests', url: 'https://example.com' },
    version: '1.0.0',
    capabilities: { streaming: true, pushNotifications: false, extensions: [], extendedAgentCard: true },
    securitySchemes: {},
    securityRequirements: [],
    defaultInputModes: ['text/plain', 'application/json'],
    defaultOutputModes: ['text/plain', 'application/json'],
    skills: [skill],
    signatures: [],
  };
  if (apiKey) {
    const scheme = { description: '', location: 'header', name: API_KEY_HEADER };
    card.securitySchemes.apiKey = { scheme: { $case: 'apiKeySecurityScheme', value: scheme } };
    card.securityRequirements.push({ schemes: { apiKey: { list: [] } } });
  }
  const secret = { ...skill, ...script.SECRET_SKILL, tags: ['extended'], examples: [] };
  return [card, { ...card, skills: [skill, secret] }];
}

/** 401 for every request without the right API key, except GETs of the public card (as the Python servers). */
function apiKeyGate(apiKey) {
  return (req, res, next) => {
    if ((req.method === 'GET' && req.path.startsWith('/.well-known/')) || req.get(API_KEY_HEADER) === apiKey) {
      return next();
    }
    res.status(401).json({ error: 'missing or wrong API key' });
  };
}

/** The API-key gate for gRPC: a call without the key ends UNAUTHENTICATED before it reaches the SDK. */
function gateGrpc(implementation, apiKey) {
  if (!apiKey) return implementation;
  const denied = { code: grpc.status.UNAUTHENTICATED, details: 'missing or wrong API key' };
  const gated = (handle) => (call, callback) => {
    if (call.metadata.get(API_KEY_HEADER.toLowerCase())[0] === apiKey) return handle(call, callback);
    if (callback) return callback(denied);
    call.emit('error', denied);
  };
  return Object.fromEntries(Object.entries(implementation).map(([name, handle]) => [name, gated(handle)]));
}

function mount(app, url, mode, apiKey, grpcServer, grpcTarget) {
  const [card, extended] = buildCards(url, mode, apiKey, grpcTarget);
  // The extended card goes to whoever may call at all: the gate above has already checked the key. (Given as a
  // card, the SDK would hand it only to users its UserBuilder authenticated.)
  const handler = new DefaultRequestHandler(
    card,
    new InMemoryTaskStore(),
    new ScriptedExecutor(),
    undefined,
    undefined,
    undefined,
    async () => extended
  );
  const legacyCompat = { enabled: true };
  const userBuilder = UserBuilder.noAuthentication;
  if (apiKey) app.use(apiKeyGate(apiKey));
  app.use(`/${AGENT_CARD_PATH}`, agentCardHandler({ agentCardProvider: handler, legacyCompat }));
  app.use('/rest', restHandler({ requestHandler: handler, userBuilder, legacyCompat }));
  app.use('/', jsonRpcHandler({ requestHandler: handler, userBuilder, legacyCompat }));
  if (grpcServer) {
    grpcServer.addService(A2AService, gateGrpc(grpcService({ requestHandler: handler, userBuilder }), apiKey));
    grpcServer.addService(
      LegacyA2AService,
      gateGrpc(legacyGrpcService({ requestHandler: handler, userBuilder }), apiKey)
    );
  }
}

/** In the gRPC modes, a gRPC server on a free port of 127.0.0.1 (its services are added by mount). */
function startGrpc(mode) {
  if (!mode.endsWith('grpc')) return Promise.resolve([null, '']);
  const server = new grpc.Server();
  return new Promise((resolve, reject) => {
    server.bindAsync('127.0.0.1:0', grpc.ServerCredentials.createInsecure(), (error, port) =>
      error ? reject(error) : resolve([server, `127.0.0.1:${port}`])
    );
  });
}

async function main() {
  const { values } = parseArgs({
    options: {
      port: { type: 'string', default: '0' },
      mode: { type: 'string', default: MODES[0] },
      'api-key': { type: 'string' },
      'exit-on-stdin-eof': { type: 'boolean', default: false },
    },
  });
  if (!MODES.includes(values.mode)) {
    console.error(`--mode must be one of ${MODES.join(', ')}`);
    process.exit(2);
  }
  const app = express();
  const [grpcServer, grpcTarget] = await startGrpc(values.mode);
  // Listen first, so the card can carry the real port; nothing is served before READY is printed.
  const server = app.listen(Number(values.port), '127.0.0.1', () => {
    const url = `http://127.0.0.1:${server.address().port}/`;
    mount(app, url, values.mode, values['api-key'], grpcServer, grpcTarget);
    console.log(`READY ${url}${grpcTarget ? ` grpc=${grpcTarget}` : ''}`);
  });
  server.on('error', (error) => {
    console.error(error);
    process.exit(1);
  });
  if (values['exit-on-stdin-eof']) {
    // The harness closes our stdin when it is done (or dies): leave no server behind.
    process.stdin.on('end', () => process.exit(0));
    process.stdin.resume();
  }
  for (const signal of ['SIGINT', 'SIGTERM']) process.on(signal, () => process.exit(0));
}

main();
