// Module-worker bootstrap for the engine (how it starts: engine-boot.js).
import { boot } from './engine-boot.js';

boot(() => import('./engine-worker.js'));
