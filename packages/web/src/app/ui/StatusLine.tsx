import { useEffect } from 'preact/hooks';
import { keptAt, language, liveConnected, newVersionReady, notice, online, t } from '../store/state.js';
import { clockTime } from '../model/days.js';

/** How long a notice stays (one with an undo a little longer). */
const noticeMs = { plain: 6000, undo: 10000 };

/** Offline and since when, or live: in the bar, where its coming and going moves nothing else on the page. */
export function ConnectionStatus() {
  const texts = t.value;
  const kept = keptAt.value;
  const offline =
    kept !== null ? texts.offlineAsOf(clockTime(kept, language.value)) : online.value ? null : texts.offline;
  return (
    <p class="connection" role="status">
      {offline !== null && <span class="offline">{offline}</span>}
      {offline === null && liveConnected.value && <span class="live">{texts.live}</span>}
    </p>
  );
}

/** What the person should know now: a message with its undo, a new version waiting. */
export function StatusLine() {
  const texts = t.value;
  const current = notice.value;
  useEffect(() => {
    if (current === null) return;
    const timer = setTimeout(
      () => {
        if (notice.value === current) notice.value = null;
      },
      current.undo === undefined ? noticeMs.plain : noticeMs.undo,
    );
    return () => clearTimeout(timer);
  }, [current]);
  return (
    <div class="status-line">
      <div class="notice" role="status">
        {current !== null && (
          <p data-kind={current.kind}>
            {current.text}
            {current.undo !== undefined && (
              <button
                type="button"
                class="link"
                onClick={() => {
                  current.undo?.();
                  notice.value = null;
                }}
              >
                {texts.undo}
              </button>
            )}
          </p>
        )}
      </div>
      {newVersionReady.value && <p class="new-version">{texts.newVersion}</p>}
    </div>
  );
}
