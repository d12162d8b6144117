// A caller on the official JavaScript SDK (@a2a-js/sdk client) for the `switchboard serve` tests: it plays one
// scenario against a served workflow and prints what it saw, one JSON object per line, for Python to check.
//
//   node serve_client.mjs --card URL --scenario stream|answers|cancel|send|get|subscribe
//        [--text T] [--data JSON] [--answers A,B] [--task-id ID] [--api-key K] [--binding JSONRPC|HTTP+JSON]

import { randomUUID } from 'node:crypto';
import { ClientFactory, ClientFactoryOptions } from '@a2a-js/sdk/client';

const args = {};
for (let i = 2; i < process.argv.length; i += 2) args[process.argv[i].replace(/^--/, '')] = process.argv[i + 1];

const STATES = {
  1: 'submitted',
  2: 'working',
  3: 'completed',
  4: 'failed',
  5: 'canceled',
  6: 'input-required',
  7: 'rejected',
  8: 'auth-required',
};

function out(object) {
  process.stdout.write(JSON.stringify(object) + '\n');
}

function parts(list) {
  return (list || []).map((p) => {
    const c = p.content || {};
    return { kind: c.$case, value: c.$case === 'raw' ? String(c.value.length) : c.value, metadata: p.metadata };
  });
}

function text(list) {
  return parts(list)
    .filter((p) => p.kind === 'text')
    .map((p) => p.value)
    .join('');
}

function status(s) {
  return { state: STATES[s.state] || String(s.state), text: text(s.message?.parts), metadata: s.message?.metadata };
}

function event(response, turn) {
  const p = response.payload || {};
  const v = p.value || {};
  if (p.$case === 'task') return { turn, kind: 'task', id: v.id, contextId: v.contextId, ...status(v.status) };
  if (p.$case === 'statusUpdate') return { turn, kind: 'status', taskId: v.taskId, ...status(v.status) };
  if (p.$case === 'artifactUpdate')
    return {
      turn,
      kind: 'artifact',
      artifactId: v.artifact.artifactId,
      append: !!v.append,
      lastChunk: !!v.lastChunk,
      parts: parts(v.artifact.parts),
    };
  if (p.$case === 'message') return { turn, kind: 'message', text: text(v.parts) };
  return { turn, kind: 'unknown' };
}

function message(body, taskId, contextId) {
  const content = body.data !== undefined ? { $case: 'data', value: body.data } : { $case: 'text', value: body.text };
  return {
    messageId: randomUUID(),
    role: 1,
    parts: [{ content, metadata: undefined }],
    taskId: taskId || '',
    contextId: contextId || '',
    metadata: body.metadata,
    extensions: [],
    referenceTaskIds: [],
  };
}

function request(msg, returnImmediately = false) {
  return {
    tenant: '',
    message: msg,
    configuration: {
      acceptedOutputModes: [],
      taskPushNotificationConfig: undefined,
      historyLength: undefined,
      returnImmediately,
    },
    metadata: undefined,
  };
}

const options = args['api-key'] ? { serviceParameters: { 'X-API-Key': args['api-key'] } } : {};

async function client() {
  const overrides = args.binding ? { preferredTransports: [args.binding] } : {};
  const factory = new ClientFactory(ClientFactoryOptions.createFrom(ClientFactoryOptions.default, overrides));
  return factory.createFromUrl(args.card, '');
}

async function stream(c, msg, turn) {
  let last = null;
  for await (const response of c.sendMessageStream(request(msg), options)) {
    const e = event(response, turn);
    out(e);
    if (e.kind === 'task' || e.kind === 'status') last = e;
  }
  return last;
}

async function main() {
  const c = await client();
  out({ kind: 'client', protocol: c.transport.protocolName, version: c.protocolVersion });
  const body = args.data ? { data: JSON.parse(args.data) } : { text: args.text || 'hello' };
  if (args.scenario === 'stream') {
    await stream(c, message(body), 0);
  } else if (args.scenario === 'answers') {
    // A first message, then each answer in the same task while it waits.
    let last = await stream(c, message(body), 0);
    const taskId = last.taskId || last.id;
    let contextId = null;
    const task = await c.getTask({ tenant: '', id: taskId, historyLength: undefined }, options);
    contextId = task.contextId;
    const answers = (args.answers || '').split(',').filter(Boolean);
    let turn = 0;
    for (const answer of answers) {
      turn += 1;
      const [step, said] = answer.includes('=') ? answer.split('=') : [null, answer];
      const extra = step ? { metadata: { step } } : {};
      last = await stream(c, message({ text: said, ...extra }, taskId, contextId), turn);
    }
    const final = await c.getTask({ tenant: '', id: taskId, historyLength: undefined }, options);
    out({ kind: 'final', id: final.id, ...status(final.status), artifacts: final.artifacts.map((a) => ({ id: a.artifactId, parts: parts(a.parts) })) });
  } else if (args.scenario === 'cancel') {
    // Stream until the long step reports progress, then cancel the served task.
    let taskId = null;
    for await (const response of c.sendMessageStream(request(message(body)), options)) {
      const e = event(response, 0);
      out(e);
      taskId = taskId || e.id || e.taskId;
      if (e.kind === 'status' && e.metadata?.event === 'progress') break;
    }
    const canceled = await c.cancelTask({ tenant: '', id: taskId, metadata: undefined }, options);
    out({ kind: 'canceled', id: canceled.id, ...status(canceled.status) });
    const final = await c.getTask({ tenant: '', id: taskId, historyLength: undefined }, options);
    out({ kind: 'final', id: final.id, ...status(final.status) });
  } else if (args.scenario === 'send') {
    const result = await c.sendMessage(request(message(body), args['return-immediately'] === 'true'), options);
    const v = result.payload?.value || result;
    out({ kind: 'result', id: v.id, contextId: v.contextId, ...(v.status ? status(v.status) : {}) });
  } else if (args.scenario === 'get') {
    const task = await c.getTask({ tenant: '', id: args['task-id'], historyLength: undefined }, options);
    out({ kind: 'final', id: task.id, contextId: task.contextId, ...status(task.status) });
  } else if (args.scenario === 'subscribe') {
    try {
      for await (const response of c.resubscribeTask({ tenant: '', id: args['task-id'] }, options)) out(event(response, 0));
    } catch (error) {
      out({ kind: 'subscribe-ended', message: String(error?.message || error) }); // e.g. it ended meanwhile
    }
    const task = await c.getTask({ tenant: '', id: args['task-id'], historyLength: undefined }, options);
    out({ kind: 'final', id: task.id, ...status(task.status), artifacts: task.artifacts.map((a) => ({ id: a.artifactId, parts: parts(a.parts) })) });
  }
}

main().catch((error) => {
  out({ kind: 'error', name: error?.constructor?.name, message: String(error?.message || error) });
  process.exit(1);
});
