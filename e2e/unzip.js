// The files of a downloaded zip, for the export tests.
import { execFileSync } from 'node:child_process';

/** The files of a zip, by name, read with Python's zipfile (which checks every CRC). */
export function unzip(path) {
  const script =
    'import json, sys, zipfile\nz = zipfile.ZipFile(sys.argv[1])\nassert z.testzip() is None\nprint(json.dumps({i.filename: z.read(i).decode() for i in z.infolist()}))';
  return JSON.parse(execFileSync('python3', ['-c', script, path], { encoding: 'utf8' }));
}
