// Every test file in one process (`npm test` runs this): aws-cdk-lib and the TypeScript loader
// load once instead of once per file, and makeStack's default template is synthesized once.
import * as fs from 'node:fs';

for (const file of fs.readdirSync(__dirname).filter((f) => f.endsWith('.test.ts')).sort()) {
  // eslint-disable-next-line @typescript-eslint/no-require-imports
  require(`./${file}`);
}
