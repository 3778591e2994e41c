/** The examples' seeded generator is the engine's, so every run generates the same events. */
export { seededRandom } from '../core/functions/seeded-random.js';
