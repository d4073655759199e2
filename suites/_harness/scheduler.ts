/**
 * The run's scheduler (src/util/scheduler.ts): at most `concurrency` checks in flight, and checks
 * that would disturb each other never in flight together. In a run of several worker threads the
 * slots and locks are the runner's (threads.ts asks for them).
 */
export { locksOf, Scheduler, SESSION, type Lock, type LockMode, type Uses } from '../../src/util/scheduler.js';
