import { useEffect, useState } from 'preact/hooks';
import { messageOf } from '../../shared/api.js';
import {
  currentSubscription,
  notificationSettings,
  pushSupported,
  saveSoldOut,
  sendTest,
  serverPushKey,
  turnOff,
  turnOn,
} from '../store/notifications.js';
import { session, t } from '../store/state.js';

/**
 * "Notify me": a switch, shown when the server sends push and this browser can receive it (signed in). The permission
 * is asked on the tap that turns it on. When on: sold-out notices too (opt-in), and a test notification.
 */
export function NotifySwitch() {
  const texts = t.value;
  const signedIn = session.value;
  const [key, setKey] = useState<string | null>(null);
  const [on, setOn] = useState(false);
  const [soldOut, setSoldOut] = useState(false);
  const [busy, setBusy] = useState(false);
  const [message, setMessage] = useState<string | null>(null);

  useEffect(() => {
    if (signedIn === null || !pushSupported()) return;
    void (async () => {
      const publicKey = await serverPushKey().catch(() => null);
      setKey(publicKey);
      if (publicKey === null) return;
      const subscribed = (await currentSubscription()) !== null && Notification.permission === 'granted';
      setOn(subscribed);
      if (subscribed) setSoldOut((await notificationSettings()).sold_out);
    })().catch(() => {});
  }, [signedIn]);

  if (key === null || signedIn === null) return null;
  const toggle = async () => {
    setBusy(true);
    setMessage(null);
    try {
      if (on) {
        await turnOff();
        setOn(false);
      } else if (await turnOn(key, { sold_out: soldOut })) {
        setOn(true);
      } else {
        setMessage(texts.notificationsBlocked);
      }
    } catch (error) {
      setMessage(texts.notificationsFailed(messageOf(error)));
    } finally {
      setBusy(false);
    }
  };
  return (
    <section aria-labelledby="notifications-heading" class="notifications">
      <h2 id="notifications-heading">{texts.notificationsHeading}</h2>
      <p class="hint" id="notify-intro">
        {texts.notifyIntro}
      </p>
      <button
        type="button"
        role="switch"
        class="switch"
        aria-checked={on}
        aria-describedby="notify-intro"
        disabled={busy}
        onClick={() => void toggle()}
      >
        {texts.notifyMe}
      </button>
      {on && (
        <>
          <div class="choice">
            <input
              id="sold-out-too"
              type="checkbox"
              checked={soldOut}
              onChange={(event) => {
                const wanted = event.currentTarget.checked;
                setSoldOut(wanted);
                void saveSoldOut(wanted).catch((error: unknown) =>
                  setMessage(texts.notificationsFailed(messageOf(error))),
                );
              }}
            />
            <label for="sold-out-too">{texts.soldOutToo}</label>
          </div>
          <button
            type="button"
            class="quiet"
            onClick={() =>
              void sendTest().then(
                ({ results }) =>
                  setMessage(
                    texts.testSent(results.filter((result) => result.outcome === 'delivered').length, results.length),
                  ),
                (error: unknown) => setMessage(texts.notificationsFailed(messageOf(error))),
              )
            }
          >
            {texts.sendTest}
          </button>
        </>
      )}
      <p role="status">{message}</p>
    </section>
  );
}
