// What the reference agent does: a line-for-line port of ../script.py (the SDK-neutral steps the Python
// servers replay). Keep the two in step: tests/interop/test_reference_servers.py compares the card texts of
// every server with script.py, and the interop matrix checks the flows' texts and chunking.

export const STEP_PAUSE = 0.05; // between greet/auth steps: streaming is real, tests stay fast
export const TICK_PAUSE = 0.1;
export const SLOW_LIMIT = 30.0;
export const BIG_CHUNKS = 8; // the 'big' flow's artifact: this many chunks of BIG_CHUNK_SIZE characters, then it ticks
export const BIG_CHUNK_SIZE = 64 * 1024;

// Neutral state names (the v0.3 spellings); the server maps them onto the SDK's enum.
export const WORKING = 'working';
export const INPUT_REQUIRED = 'input-required';
export const AUTH_REQUIRED = 'auth-required';
export const COMPLETED = 'completed';
export const FAILED = 'failed';
export const REJECTED = 'rejected';
export const CANCELED = 'canceled';
export const CANCEL_TEXT = 'canceled by request';
export const AUTH_PROMPT = 'Send your access code to continue';

export const AGENT_NAME = 'Switchboard Reference Agent';
export const AGENT_DESCRIPTION = 'Deterministic A2A agent the switchboard interop tests run against.';
export const SKILL_ID = 'greet';
export const SKILL_NAME = 'Greeter';
export const SKILL_EXAMPLES = ['hi', 'quick hello', 'slow job', 'fail please', 'parts please'];
export const SKILL_TAGS = ['test', 'multi-turn', 'streaming'];
export const SKILL_DESCRIPTION =
  "The first word decides: 'quick' replies with a message (no task); 'fail' fails; 'reject' is rejected; " +
  "'crash' raises in the executor; 'slow' ticks every 0.1 s for 30 s (cancel or resubscribe it); " +
  "'big' streams a 512 KB artifact in 8 chunks, then ticks like 'slow'; " +
  "'parts' returns data and file parts; 'auth' needs 'code <anything>' (auth-required); anything else asks " +
  'for a name (input-required) and streams a greeting artifact in 3 chunks.';
export const SECRET_SKILL = { id: 'secret', name: 'Extended-only skill', description: 'Only in the extended card.' };

// Parts: { text } | { data } | { file: { name, mediaType, raw?: Buffer, url? } }.
// Steps: { reply: parts } | { newTask: true } | { status: [state, text] } | { artifact: {...} } | { pause: s } |
// { crash: message }.

/** The user's text: its text parts joined by spaces, trimmed. */
export function textOf(parts) {
  return parts
    .filter((p) => 'text' in p)
    .map((p) => p.text)
    .join(' ')
    .trim();
}

/** The steps answering one incoming message ({ parts, taskState }; taskState null when there is no task yet). */
export function* plan(incoming) {
  const flow = chooseFlow(incoming);
  if (flow === quick) {
    yield* quick(incoming); // a direct reply: no task, so no artifacts either
    return;
  }
  if (incoming.taskState === null) yield { newTask: true };
  const received = receivedSummary(incoming.parts);
  if (received) {
    // Lets client tests check that --data / --file reached the agent.
    yield chunk('received-artifact', 'received', [{ data: received }], { lastChunk: true });
  }
  yield* flow(incoming);
}

/** Run steps, handing the publishable ones to `emit`; stop as soon as the task is canceled. */
export async function perform(steps, emit, canceled) {
  for (const step of steps) {
    if (canceled()) return;
    if ('pause' in step) await sleep(step.pause);
    else if ('crash' in step) throw new Error(step.crash);
    else emit(step);
  }
}

function sleep(seconds) {
  return new Promise((resolve) => setTimeout(resolve, seconds * 1000));
}

function status(state, text) {
  return { status: [state, text] };
}

function chunk(artifactId, name, parts, { append = false, lastChunk = false } = {}) {
  return { artifact: { artifactId, name, parts, append, lastChunk } };
}

function chooseFlow(incoming) {
  // A follow-up answers the question the task is waiting on, whatever its first word.
  if (incoming.taskState === INPUT_REQUIRED) return greetAnswer;
  if (incoming.taskState === AUTH_REQUIRED) return authAnswer;
  const first = (textOf(incoming.parts).split(/\s+/)[0] || '').toLowerCase();
  return FLOWS[first] ?? greet;
}

function* quick(incoming) {
  // No task means no artifact, so what arrived rides along as a data part of the reply.
  const received = receivedSummary(incoming.parts);
  const extra = received ? [{ data: received }] : [];
  yield { reply: [{ text: `quick reply to: ${textOf(incoming.parts)}` }, ...extra] };
}

function* greet() {
  yield status(WORKING, 'thinking');
  yield { pause: STEP_PAUSE };
  yield status(WORKING, 'checking what I need');
  yield { pause: STEP_PAUSE };
  yield status(INPUT_REQUIRED, 'What name should I greet?');
}

function* greetAnswer(incoming) {
  const name = textOf(incoming.parts);
  yield status(WORKING, `got it: ${name}`);
  const chunks = ['Hello, ', name, '! Nice to meet you.'];
  for (const [i, text] of chunks.entries()) {
    yield { pause: STEP_PAUSE };
    const lastChunk = i === chunks.length - 1;
    yield chunk('greeting-artifact', 'greeting', [{ text }], { append: i > 0, lastChunk });
  }
  yield { pause: STEP_PAUSE };
  yield status(COMPLETED, 'done');
}

function* auth() {
  yield status(WORKING, 'checking access');
  yield { pause: STEP_PAUSE };
  yield status(AUTH_REQUIRED, AUTH_PROMPT);
}

function* authAnswer(incoming) {
  if (!textOf(incoming.parts).toLowerCase().startsWith('code ')) {
    yield status(AUTH_REQUIRED, AUTH_PROMPT);
    return;
  }
  yield status(WORKING, 'access granted');
  yield { pause: STEP_PAUSE };
  yield status(COMPLETED, 'authorized');
}

function* fail() {
  yield status(WORKING, 'about to fail');
  yield { pause: STEP_PAUSE };
  yield status(FAILED, 'failed on purpose');
}

function* reject() {
  yield status(REJECTED, 'rejected on purpose');
}

function* crash() {
  yield status(WORKING, 'about to crash');
  yield { pause: STEP_PAUSE };
  yield { crash: 'executor crashed on purpose' };
}

function* slow() {
  for (let tick = 1; tick <= Math.round(SLOW_LIMIT / TICK_PAUSE); tick++) {
    yield status(WORKING, `tick ${tick}`);
    yield { pause: TICK_PAUSE };
  }
  yield chunk('slow-result-artifact', 'slow-result', [{ text: 'slow job done' }], { lastChunk: true });
  yield status(COMPLETED, 'done');
}

/** Chunk `i` of the 'big' flow's artifact: numbered lines, with escapes on the wire (quotes, newlines). */
export function bigChunk(i) {
  const line = `${String(i).padStart(4, '0')} "a big artifact" goes on\n`;
  return line.repeat(Math.floor(BIG_CHUNK_SIZE / line.length) + 1).slice(0, BIG_CHUNK_SIZE);
}

function* big(incoming) {
  yield status(WORKING, 'writing a big artifact');
  for (let i = 0; i < BIG_CHUNKS; i++) {
    yield chunk('big-artifact', 'big', [{ text: bigChunk(i) }], { append: i > 0 });
  }
  yield* slow(incoming);
}

function* parts() {
  const extras = [
    { data: { name: 'Ada', length: 3 } },
    { file: { name: 'hello.txt', mediaType: 'text/plain', raw: Buffer.from('hello bytes\n') } },
    { file: { name: 'hello.png', mediaType: 'image/png', url: 'https://example.com/hello.png' } },
  ];
  yield chunk('extras-artifact', 'extras', extras, { lastChunk: true });
  yield status(COMPLETED, 'done');
}

const FLOWS = { quick, fail, reject, crash, slow, big, parts, auth };

/** What arrived, when the message carried more than text (null otherwise). */
function receivedSummary(parts) {
  if (parts.every((p) => 'text' in p)) return null;
  const kinds = parts.map((p) => ('text' in p ? 'text' : 'data' in p ? 'data' : 'file'));
  const files = parts
    .filter((p) => 'file' in p)
    .map(({ file }) => ({
      name: file.name ?? null,
      mediaType: file.mediaType ?? null,
      size: file.raw === undefined ? null : file.raw.length,
      url: file.url ?? null,
    }));
  return { kinds, data: parts.filter((p) => 'data' in p).map((p) => p.data), files };
}
