import { useRef, useState } from 'preact/hooks';
import { keepPastedToken } from '../../shared/pasted-token.js';
import { messageOf } from '../../shared/api.js';
import { signIn } from '../store/account.js';
import { notice, session, t } from '../store/state.js';

/**
 * "Sign in" (every view), or who is signed in (signing out is in "My data": the bar stays one line on a phone).
 * Without a provider: a form for a pasted token.
 */
export function SignInButton() {
  const texts = t.value;
  const dialog = useRef<HTMLDialogElement>(null);
  const [busy, setBusy] = useState(false);
  const signedIn = session.value;
  if (signedIn !== null) {
    return (
      <div class="account">
        <span class="user">{texts.signedInAs(signedIn.user)}</span>
      </div>
    );
  }
  const start = async () => {
    setBusy(true);
    try {
      if ((await signIn()) === 'paste') {
        setBusy(false);
        dialog.current?.showModal();
      }
    } catch (error) {
      setBusy(false);
      notice.value = { kind: 'error', text: texts.signInFailed(messageOf(error)) };
    }
  };
  return (
    <div class="account">
      <button type="button" class="sign-in" disabled={busy} onClick={() => void start()}>
        {texts.signIn}
      </button>
      <dialog ref={dialog} class="paste-token" aria-labelledby="paste-heading">
        <form
          method="dialog"
          onSubmit={(event) => {
            const input = event.currentTarget.elements.namedItem('token') as HTMLInputElement;
            if (event.submitter?.getAttribute('value') === 'cancel') return;
            event.preventDefault();
            if (keepPastedToken(input.value)) location.reload();
          }}
        >
          <h2 id="paste-heading">{texts.pasteHeading}</h2>
          <p>{texts.pasteIntro}</p>
          <label for="pasted-token">{texts.pasteLabel}</label>
          <input id="pasted-token" name="token" type="password" autocomplete="off" spellcheck={false} />
          <div class="panel-actions">
            <button type="submit" value="cancel" class="quiet" formNoValidate>
              {texts.cancel}
            </button>
            <button type="submit" value="use">
              {texts.pasteUse}
            </button>
          </div>
        </form>
      </dialog>
    </div>
  );
}
