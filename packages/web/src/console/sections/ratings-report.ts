// The ratings report: a canteen's days as CSV, fetched through the client and offered as a download (a Blob link: the
// token travels in a header, which a plain link could not send).
import { todayIn } from '../../shared/dates.js';
import { element } from '../../shared/dom.js';
import { firstOfMonth, reportFileName, reportRequestOf } from '../console-requests.js';
import {
  activeCanteens,
  canteenSelect,
  field,
  sectionShell,
  textInput,
  whileBusy,
  type SectionContext,
} from '../ui.js';

export function ratingsReportSection(context: SectionContext): HTMLElement {
  const { t, client } = context;
  const { section, notices } = sectionShell('report', t.report);
  section.append(element('p', 'hint', t.reportHint));
  let link: string | null = null;

  void (async () => {
    try {
      const canteens = await activeCanteens(client);
      if (canteens.length === 0) return notices.done(t.noCanteens);
      const form = element('form', 'picker');
      form.noValidate = true;
      const canteen = field('report-canteen', t.canteen, canteenSelect(canteens));
      const today = todayIn(canteens[0]!.timezone);
      const from = field('report-from', t.from, textInput('date', firstOfMonth(today)));
      const to = field('report-to', t.to, textInput('date', today));
      const prepare = element('button', 'primary', t.prepareReport);
      prepare.type = 'submit';
      const download = element('p', 'download');
      download.id = 'report-download';
      form.append(canteen.wrapper, from.wrapper, to.wrapper, prepare);
      section.append(form, download);
      form.addEventListener('submit', (event) => {
        event.preventDefault();
        const checked = reportRequestOf(canteen.control.value, from.control.value, to.control.value);
        if (!checked.ok) return notices.fail(t.requestProblem[checked.problem]);
        void whileBusy(prepare, notices, async () => {
          download.replaceChildren();
          const csv = await client.getRatingsReport(checked.value);
          // The byte order mark the client dropped: spreadsheet apps read the file as UTF-8 with it.
          const file = new Blob(['\uFEFF', csv], { type: 'text/csv;charset=utf-8' });
          if (link !== null) URL.revokeObjectURL(link);
          link = URL.createObjectURL(file);
          const anchor = element('a', 'button primary', t.downloadReport(reportFileName(checked.value)));
          anchor.href = link;
          anchor.download = reportFileName(checked.value);
          const rows = Math.max(0, csv.split('\r\n').filter((line) => line !== '').length - 1);
          download.append(anchor, element('span', 'hint', ` ${t.reportRows(rows)}`));
          notices.done(t.reportReady(rows));
          anchor.focus();
        });
      });
    } catch (error) {
      notices.fail(error);
    }
  })();
  return section;
}
