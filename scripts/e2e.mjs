// Runs the browser end-to-end suite (tests/e2e) against a fresh build of the site.
// Without a Chromium it is skipped with a loud notice, except under CI=true where that fails.
// Extra arguments go to `playwright test`, e.g. `npm run test:e2e -- --grep healthz`.
import { spawn } from 'node:child_process';
import { accessSync, constants } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { ensureBuild } from './ensure-build.mjs';
import { chromiumPath } from './chromium.mjs';

const root = fileURLToPath(new URL('..', import.meta.url));
// The same browser playwright.config.ts launches.
const chromium = chromiumPath;

function isExecutable(file) {
  try {
    accessSync(file, constants.X_OK);
    return true;
  } catch {
    return false;
  }
}

if (!isExecutable(chromium)) {
  if (process.env.CI === 'true') {
    console.error(
      `End-to-end tests cannot run: no Chromium at ${chromium} (CI=true, so this is an error).\n` +
        'Install it with `apt-get install -y chromium`, or set CHROMIUM_PATH to its executable.',
    );
    process.exit(1);
  }
  const bar = '!'.repeat(72);
  const line = (text = '') => `!!  ${text.padEnd(66)}!!`;
  console.warn(
    [
      '',
      bar,
      bar,
      line(),
      line('END-TO-END TESTS SKIPPED'),
      line(),
      line(`Chromium not found at ${chromium}`),
      line('Install it with:  apt-get install -y chromium'),
      line('or set CHROMIUM_PATH to a Chromium executable.'),
      line(),
      line('The browser tests did NOT run: this is not a pass.'),
      line('(With CI=true a missing Chromium fails instead.)'),
      line(),
      bar,
      bar,
      '',
    ].join('\n'),
  );
  process.exit(0);
}

await ensureBuild(root);

const child = spawn(
  process.execPath,
  [path.join(root, 'node_modules/@playwright/test/cli.js'), 'test', ...process.argv.slice(2)],
  { cwd: root, stdio: 'inherit' },
);
// Let Playwright stop its servers and browser on Ctrl+C or a CI timeout before this exits.
for (const signal of ['SIGINT', 'SIGTERM']) {
  process.on(signal, () => child.kill(signal));
}
child.on('error', (error) => {
  console.error(`Could not start Playwright: ${error.message}`);
  process.exit(1);
});
child.on('exit', (code, signal) => {
  process.exit(code ?? (signal ? 1 : 0));
});
