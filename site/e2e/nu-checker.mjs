// The W3C Nu HTML checker (npm's vnu-jar; needs Java) for the browser tests: nuErrors(files)
// returns the errors it finds in HTML files.
//
// scripts/e2e.sh starts the checker once as a service (E2E_VNU_URL) for every file that needs it:
// one JVM, its schemas read and its code warmed once, where a run of the jar per test file paid
// about 7 CPU-seconds each time. A file run on its own, without the service, runs the jar once.
import { spawnSync } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { createRequire } from 'node:module';

/** VNU is the Nu HTML checker's jar. */
export const VNU = createRequire(import.meta.url).resolve('vnu-jar/build/dist/vnu.jar');
const SERVICE = process.env.E2E_VNU_URL;

/**
 * nuErrors checks each file (an HTML document as served) and returns its errors as
 * "label:line: message [extract]", labelled by labels.get(file) (the page's address).
 */
export async function nuErrors(files, labels = new Map()) {
  const byFile = SERVICE ? await checkOnService(files) : checkWithJar(files);
  const errors = [];
  for (const [file, messages] of byFile) {
    for (const m of messages) {
      if (m.type !== 'error' && m.subType !== 'fatal') continue;
      const extract = m.extract ? ` [${m.extract.trim().slice(0, 120)}]` : '';
      errors.push(`${labels.get(file) ?? file}:${m.lastLine ?? '?'}: ${m.message}${extract}`);
    }
  }
  return errors;
}

/** checkOnService posts each file to the running checker (waiting for it to be up) and returns its messages by file. */
async function checkOnService(files) {
  await serviceUp();
  const byFile = new Map();
  for (const file of files) {
    const res = await fetch(`${SERVICE}?out=json`, {
      method: 'POST',
      headers: { 'Content-Type': 'text/html; charset=utf-8' },
      body: readFileSync(file),
    });
    if (!res.ok) throw new Error(`the Nu checker at ${SERVICE} answered ${res.status}: ${await res.text()}`);
    byFile.set(file, (await res.json()).messages);
  }
  return byFile;
}

/** serviceUp waits until the checker answers (it reads its schemas for a few seconds after starting). */
async function serviceUp(timeoutMs = 90_000) {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    try {
      if ((await fetch(SERVICE)).ok) return;
    } catch {
      // not listening yet
    }
    if (Date.now() > deadline) throw new Error(`the Nu checker at ${SERVICE} did not start (see build/vnu.log)`);
    await new Promise((r) => setTimeout(r, 500));
  }
}

/**
 * JVM_SHORT_RUN are the JVM's flags for a run of a few hundred pages at most: the quick compiler
 * only, one compiler thread, the serial collector (the checker's CPU over 80 pages: 23.5 → 9.9 s),
 * and the deep stack its schema evaluation needs (more so with the quick compiler's frames).
 * scripts/e2e.sh starts the service with the same.
 */
const JVM_SHORT_RUN = ['-XX:TieredStopAtLevel=1', '-XX:CICompilerCount=1', '-XX:+UseSerialGC', '-Xss8m'];

/** checkWithJar runs the jar once over every file and returns the messages by file. */
function checkWithJar(files) {
  const run = spawnSync('java', [...JVM_SHORT_RUN, '-jar', VNU, '--errors-only', '--format', 'json', ...files], { encoding: 'utf8', maxBuffer: 64 << 20 });
  if (run.error) throw new Error(`java: ${run.error.message} (install a JRE: apt-get install default-jre-headless)`);
  let messages;
  try {
    messages = JSON.parse(run.stderr || run.stdout).messages;
  } catch {
    throw new Error(`the checker said: ${run.stderr}${run.stdout}`);
  }
  const byFile = new Map(files.map((f) => [f, []]));
  for (const m of messages) {
    const file = decodeURIComponent(m.url?.replace(/^file:/, '') ?? '');
    if (!byFile.has(file)) byFile.set(file, []);
    byFile.get(file).push(m);
  }
  return byFile;
}
