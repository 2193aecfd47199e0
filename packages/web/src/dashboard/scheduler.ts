/**
 * Timers as a port: the page's logic (undo windows, paging, reconnecting) takes one, so unit tests step a manual
 * scheduler through ten seconds without sleeping; the page hands in the browser's own.
 */
export interface Scheduler {
  after(ms: number, run: () => void): Cancel;
}
export type Cancel = () => void;

export const browserScheduler: Scheduler = {
  after(ms, run) {
    const handle = setTimeout(run, ms);
    return () => clearTimeout(handle);
  },
};
