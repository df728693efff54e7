// What burn 0.22.1's generated routing does in each cell, and the values each op must produce.
// Written from the ops' definitions and the routing's documented behaviour; the page's numbers
// and messages are compared against this, never against themselves.

export const OPS = {
  scale: { tensor: '1, -2, 3.5, 0.25', param: '2.5', int: false },
  leaky_relu: { tensor: '-2, -0.5, 0.75, 3', param: '0.125', int: false },
  shift_ids: { tensor: '0, 7, 41, -3', param: '1000', int: true },
};

const parse = (text) => text.split(',').map((v) => Number(v.trim()));
const f32 = Math.fround;

/** Output and derivative of each op, in f32 as the engine computes them. */
export function values(op) {
  const x = parse(OPS[op].tensor);
  const p = Number(OPS[op].param);
  switch (op) {
    case 'scale':
      return { output: x.map((v) => f32(f32(v) * f32(p))), gradient: x.map(() => f32(p)) };
    case 'leaky_relu':
      return {
        output: x.map((v) => (v > 0 ? v : f32(f32(v) * f32(p)))),
        gradient: x.map((v) => (v > 0 ? 1 : f32(p))),
      };
    case 'shift_ids':
      return { output: x.map((v) => v + p), gradient: null };
  }
}

/** The page's formatting of a value list (exact binary fractions print the same in Rust and JS). */
export const shown = (list) => list.map(String).join(', ');

export const ROUTE_TITLES = {
  concrete: 'Concrete implementation',
  concreteInAutodiff: 'Concrete implementation, in the autodiff context',
  autodiff: 'Autodiff<B, C> implementation',
  builtin: 'Builtin tensor ops (custom op not called)',
};

/**
 * Every op × declaration × grad context × fix; `requireGrad` follows the grad context, as in a
 * training loop.
 */
export const CELLS = Object.keys(OPS).flatMap((op) =>
  [false, true].flatMap((declaresAutodiff) =>
    [false, true].flatMap((grad) =>
      ['none', 'detach', 'builtin'].map((fix) => ({ op, declaresAutodiff, grad, requireGrad: grad, fix })),
    ),
  ),
);

/**
 * @param {{op: string, declaresAutodiff: boolean, grad: boolean, requireGrad: boolean, fix: string}} cell
 * @returns {{panic: string} | {route: string, gradient: boolean}}
 */
export function expectedOutcome(cell) {
  const int = OPS[cell.op].int;
  if (!int && cell.requireGrad && !cell.grad) {
    return { panic: 'Tensor::require_grad requires autodiff; call Tensor::autodiff first' };
  }
  if (cell.fix === 'builtin') {
    return { route: 'builtin', gradient: !int && cell.grad && cell.requireGrad };
  }
  if (cell.fix === 'detach' || !cell.grad) return { route: 'concrete', gradient: false };
  if (!cell.declaresAutodiff) {
    return {
      panic: int
        ? `not implemented: Autodiff not supported for custom op \`${cell.op}\``
        : `not implemented: Backend not supported for custom op \`${cell.op}\``,
    };
  }
  return int ? { route: 'concreteInAutodiff', gradient: false } : { route: 'autodiff', gradient: cell.requireGrad };
}
