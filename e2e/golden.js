// The golden table the native matrix writes (tests/golden/matrix.json): for every cell, what the
// page must show. The browser tests drive the page through the same cells and compare; nothing
// here is typed by hand, so the page and the native engine cannot silently disagree.
import { readFileSync } from 'node:fs';

const read = (file) =>
  JSON.parse(readFileSync(new URL(`../tests/golden/${file}`, import.meta.url), 'utf8'));
const TABLE = read('matrix.json');
/** The same cells and more with burn built with its `fusion` feature (the fusion engine). */
const FUSION_TABLE = read('matrix-fusion.json');

/** The text each op's fields hold in the matrix: `{ tensor, param }`. */
export const INPUTS = TABLE.inputs;

/** Every row, as `{ name, ...row }`, in the table's order. */
export const ROWS = Object.entries(TABLE.cells).map(([name, row]) => ({ name, ...row }));

/** Every row of the fusion table, as `{ name, ...row }`. */
export const FUSION_ROWS = Object.entries(FUSION_TABLE.cells).map(([name, row]) => ({ name, ...row }));

/** Rows on one backend. */
export function rowsFor(backend) {
  return ROWS.filter((row) => row.backend === backend);
}

/** The phone widths the cells are walked at: each cell at one of them, in turn. */
export const PHONE_WIDTHS = [320, 390, 430];

/** The rows walked at phone width `width`: every third row, so all three widths cover them all. */
export function rowsAtWidth(width) {
  const index = PHONE_WIDTHS.indexOf(width);
  return ROWS.filter((_, position) => position % PHONE_WIDTHS.length === index);
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
    // Only fusion rows name it: a link without it runs burn without fusion.
    ...(row.declares_fusion ? { fusion: 'on', declares_fusion: row.declares_fusion } : {}),
  }).toString();
}

/** The page's formatting of a value list (exact binary fractions print the same in Rust and JS). */
export const shown = (list) => list.map(String).join(', ');
