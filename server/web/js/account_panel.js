// The lobby's account panel (docs/web.md "Accounts"): who plays on this page, links to their
// profile ("My games"), the leaderboards and the tournaments, and the small forms: sign up (a guest claims a
// name with a password), sign in by name or with the server's OpenID Connect provider, sign
// out. The server's refusals are shown as it words them (bad_name, weak_password, name_taken,
// bad_credentials, too_many_attempts and its wait).
import { el, clear } from './dom.js';
import { errorText } from './api.js';

// account: the page's Account (account.js).
export function accountPanel(account) {
  const node = el('section', { class: 'card wide account', id: 'account' });
  const draw = () => clear(node).append(...contents(account));
  const onChange = () => { if (node.isConnected) draw(); else account.removeEventListener('change', onChange); };
  account.addEventListener('change', onChange);
  draw();
  return node;
}

function contents(account) {
  const p = account.player;
  if (!p) return [el('p', { class: 'muted' }, account.refusal ?? 'Signing in…')];
  const who = el('p', { class: 'who' }, 'You play as ', el('strong', { id: 'account-name' }, p.name),
    p.guest ? el('span', { class: 'muted' }, ' (guest: sign up to choose your name and sign in elsewhere)') : null);
  const links = el('div', { class: 'form-row' },
    el('a', { class: 'button-link', href: `#player=${encodeURIComponent(p.id)}`, id: 'my-games' }, 'My games'),
    el('a', { class: 'button-link', href: '#games', id: 'to-games-in-play' }, 'Games in play'),
    el('a', { class: 'button-link', href: '#leaderboard=duel', id: 'leaderboards' }, 'Leaderboards'),
    el('a', { class: 'button-link', href: '#tournaments', id: 'tournaments-link' }, 'Tournaments'),
    p.guest ? providerLink(account.methods) : null,
    p.guest ? null : el('button', { type: 'button', id: 'sign-out', onclick: (e) => busy(e.target, error, () => account.signOut()) }, 'Sign out'));
  const error = el('p', { class: 'error-text', role: 'alert', id: 'account-error' });
  if (!p.guest) return [who, links, settings(account, error), error];
  return [who, links,
    el('details', { id: 'account-forms' }, el('summary', {}, 'Sign up or sign in'),
      el('div', { class: 'account-forms' },
        credentialsForm('sign-up', 'Sign up', 'new-password', error, (n, pw) => account.claim(n, pw)),
        credentialsForm('sign-in', 'Sign in', 'current-password', error, (n, pw) => account.signIn(n, pw))),
      el('p', { class: 'muted small-note' }, 'A name has 3 to 20 letters, digits, spaces, _ - or .; a password at least 8 characters.'),
      error)];
}

// "Sign in with HOST" when the server offers OpenID Connect: the browser goes to the provider
// and comes back to "/" signed in (the session cookie set by the server).
function providerLink(methods) {
  if (!methods?.oidc || !methods.oidc_issuer) return null;
  let host = methods.oidc_issuer;
  try { host = new URL(host).host; } catch { /* shown as the server gave it */ }
  return el('a', { class: 'button-link', href: '/auth/oidc/start', id: 'sign-in-oidc' }, `Sign in with ${host}`);
}

// A named player's settings: a new password (the old one asked), and deleting the account, which
// takes a second tap on the same button (its label says what the second one does).
function settings(account, error) {
  const done = el('p', { class: 'muted', role: 'status', id: 'password-changed' });
  const old = el('input', { type: 'password', id: 'old-password', maxlength: 200, autocomplete: 'current-password', placeholder: 'current password', 'aria-label': 'current password', required: true });
  const fresh = el('input', { type: 'password', id: 'new-password', maxlength: 200, autocomplete: 'new-password', placeholder: 'new password', 'aria-label': 'new password', required: true });
  const change = el('button', { type: 'submit', id: 'change-password' }, 'Change the password');
  const form = el('form', { class: 'credentials', id: 'password-form', onsubmit: (e) => {
    e.preventDefault();
    done.textContent = '';
    busy(change, error, async () => {
      await account.changePassword(old.value, fresh.value);
      old.value = fresh.value = '';
      done.textContent = 'The password is changed.';
    });
  } }, el('h3', {}, 'Password'), old, fresh, change, done);
  const remove = el('button', { type: 'button', class: 'danger', id: 'delete-account', onclick: () => {
    if (remove.dataset.armed !== 'yes') {
      remove.dataset.armed = 'yes';
      remove.textContent = 'Tap again to delete the account for good';
      return;
    }
    busy(remove, error, () => account.deleteAccount());
  } }, 'Delete my account');
  return el('details', { id: 'account-settings' }, el('summary', {}, 'Password and account'),
    el('div', { class: 'account-forms' }, form,
      el('div', {}, el('h3', {}, 'Account'),
        el('p', { class: 'muted small-note' }, 'Your games stay in the records, under "deleted player".'),
        remove)));
}

// A name and a password, and a button; `act` throws ApiError.
function credentialsForm(id, label, passwordKind, error, act) {
  const name = el('input', { type: 'text', id: `${id}-name`, maxlength: 40, autocomplete: 'username', placeholder: 'name', 'aria-label': `${label}: name`, required: true });
  const password = el('input', { type: 'password', id: `${id}-password`, maxlength: 200, autocomplete: passwordKind, placeholder: 'password', 'aria-label': `${label}: password`, required: true });
  const button = el('button', { type: 'submit', id: `${id}-submit` }, label);
  return el('form', { class: 'credentials', id: `${id}-form`, onsubmit: (e) => {
    e.preventDefault();
    busy(button, error, () => act(name.value.trim(), password.value));
  } },
  el('h3', {}, label), name, password, button);
}

async function busy(button, error, work) {
  error.textContent = '';
  button.disabled = true;
  try {
    await work();
  } catch (e) {
    error.textContent = errorText(e);
  } finally {
    button.disabled = false;
  }
}
