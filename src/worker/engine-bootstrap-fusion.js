// Module-worker bootstrap for the engine built with burn's `fusion` feature (how it starts:
// engine-boot.js).
import { boot } from './engine-boot.js';

boot(() => import('./engine-worker-fusion.js'));
