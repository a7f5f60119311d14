// Prints the result file the integration suite's run() writes: every test, the timings, and
// `N passed, M failed` alone on a line. Returns the exit code the runner should end with.
export function report(result, { label, extra = {} }) {
  console.log(`\nVS Code ${result.vscodeVersion} (${label}), extension host suite:`);
  for (const t of result.tests) {
    console.log(`  ${t.state === 'passed' ? 'ok  ' : 'FAIL'} ${t.title} (${t.durationMs} ms)`);
    if (t.error) console.log(t.error.split('\n').slice(0, 8).map((l) => `         ${l}`).join('\n'));
  }
  const tm = result.timings ?? {};
  const fmt = (v) => (v === undefined ? 'n/a' : `${v} ms`);
  const rows = [
    ['extension activation (timings().activateMs)', tm.activateMs],
    ['Show Attention -> first paint (timings().lastShowToPaintMs)', tm.showToPaintMs],
    ['Show Attention -> panel ready, seen by the test', tm.showToReadyFromTestMs],
    ['suite inside VS Code', result.durationMs],
    ...Object.entries(extra),
  ];
  console.log('\nTimings:');
  for (const [name, v] of rows) console.log(`  ${`${name}:`.padEnd(62)} ${fmt(v)}`);
  console.log(`\n${result.passed} passed, ${result.failed} failed`);
  if (result.passed + result.failed === 0) {
    console.log('no tests ran');
    return 1;
  }
  return result.failed > 0 ? 1 : 0;
}
