// The golden table the native matrix writes (tests/golden/matrix.json): for every cell, what the
// page must show. The browser tests drive the page through the same cells and compare; nothing
// here is typed by hand, so the page and the native engine cannot silently disagree.
import { readFileSync } from 'node:fs';

const TABLE = JSON.parse(
  readFileSync(new URL('../tests/golden/matrix.json', import.meta.url), 'utf8'),
);

/** The text each op's fields hold in the matrix: `{ tensor, param }`. */
export const INPUTS = TABLE.inputs;

/** Every row, as `{ name, ...row }`. */
export const ROWS = Object.entries(TABLE.cells).map(([name, row]) => ({ name, ...row }));

/** Rows a browser drives: one backend, `require_grad` following the grad context as in a training loop. */
export function rowsFor(backend) {
  return ROWS.filter((row) => row.backend === backend && row.require_grad === row.grad_context);
}

/** The cell's settings as a link's query. */
export function query(row) {
  return new URLSearchParams({
    op: row.op,
    declares_autodiff: row.declares_autodiff,
    declares_flex: row.declares_flex ? 'yes' : 'no',
    grad: row.grad_context ? 'on' : 'off',
    require_grad: row.require_grad ? 'on' : 'off',
    fix: row.fix,
    backend: row.backend,
    x: INPUTS[row.op].tensor,
    param: INPUTS[row.op].param,
  }).toString();
}

/** The page's formatting of a value list (exact binary fractions print the same in Rust and JS). */
export const shown = (list) => list.map(String).join(', ');
