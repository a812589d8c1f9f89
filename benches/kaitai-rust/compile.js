// Compiles one schema to Rust with Kaitai Struct's reference compiler (its npm build, whose only
// interface is the compile API) into one file.
//
//   node compile.js SCHEMA.ksy OUT.rs
'use strict';
const fs = require('fs');
const path = require('path');
const nodeModules = process.env.KAITAI_NODE_MODULES || '/tmp/differential/node/node_modules';
const compiler = require(path.join(nodeModules, 'kaitai-struct-compiler'));
const yaml = require(path.join(nodeModules, 'js-yaml'));

async function main() {
  const [schema, out] = process.argv.slice(2);
  const importer = { importYaml: (name) => Promise.reject(new Error(`no imports: ${name}`)) };
  const files = await compiler.compile('rust', yaml.load(fs.readFileSync(schema, 'utf8')), importer, false);
  const sources = Object.values(files);
  if (sources.length !== 1) throw new Error(`expected one file, got ${Object.keys(files)}`);
  fs.writeFileSync(out, sources[0]);
}

main().catch((e) => {
  console.error(e);
  process.exit(1);
});
