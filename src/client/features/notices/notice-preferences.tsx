import { BellRing } from 'lucide-react';
import { useEffect, useId, useState, type FormEvent } from 'react';
import {
  isChosen,
  noticeKindInfo,
  noticeKinds,
  noticeMessages,
  type NoticeChannel,
  type NoticeKind,
  type NoticePreferencesInput,
  type NoticeSettings,
} from '../../../common/notices.ts';
import type { Role } from '../../../common/roles.ts';
import { Notice } from '../../components/notice.tsx';
import { isSessionEnded, NetworkError, readJson } from '../../lib/api.ts';
import { client } from '../../lib/api-client.ts';
import { errorText } from '../../lib/error-text.ts';
import { toast } from '../../lib/toast.ts';
import { pushState, turnPushOff, turnPushOn, type PushState } from './push.ts';

type Loaded = { state: 'loading' | 'offline' | 'failed' } | { state: 'ready'; settings: NoticeSettings };
type Ticks = Partial<Record<NoticeKind, Partial<Record<NoticeChannel, boolean>>>>;

const channelNames: Record<NoticeChannel, string> = { email: 'E-mail', push: 'Push', whatsapp: 'WhatsApp' };

const pushWords: Record<Exclude<PushState, 'off' | 'on'>, string> = {
  unsupported: noticeMessages.pushUnsupported,
  'ios-needs-install': noticeMessages.pushIosHint,
  denied: noticeMessages.pushDenied,
};

/**
 * Issue 38 §1: what the user hears of, and how. E-mail is on as it always was (a booking's e-mails always go: they
 * carry its terms); push and WhatsApp are off until ticked (never pre-ticked), and the server keeps each choice with
 * its time. Push is turned on for this device from a click that says what it is for. Changing needs the server.
 */
export function NoticePreferences({ role }: { role: Role }) {
  const headingId = useId();
  const numberId = useId();
  const [loaded, setLoaded] = useState<Loaded>({ state: 'loading' });
  const [ticks, setTicks] = useState<Ticks>({});
  const [number, setNumber] = useState('');
  const [push, setPush] = useState<PushState>('off');
  const [busy, setBusy] = useState(false);
  const [numberError, setNumberError] = useState<string>();

  useEffect(() => {
    let current = true;
    void pushState().then((state) => current && setPush(state));
    void client.api.me['notice-preferences']
      .$get()
      .then(readJson)
      .then(
        (settings) => {
          if (!current) return;
          setLoaded({ state: 'ready', settings });
          setNumber(settings.preferences.whatsappNumber ?? '');
        },
        (error: unknown) => current && setLoaded({ state: error instanceof NetworkError ? 'offline' : 'failed' }),
      );
    return () => {
      current = false;
    };
  }, []);

  if (loaded.state !== 'ready')
    return (
      <Section headingId={headingId}>
        {loaded.state === 'loading' && (
          <p className="mt-4 text-sm text-slate-600 dark:text-slate-400" role="status">
            Loading your choices…
          </p>
        )}
        {loaded.state === 'offline' && (
          <Notice tone="offline" className="mt-4">
            Your choices need a connection to be read and changed.
          </Notice>
        )}
        {loaded.state === 'failed' && (
          <Notice tone="error" className="mt-4">
            Could not load your choices. Please reload the page to try again.
          </Notice>
        )}
      </Section>
    );

  const { settings } = loaded;
  const kinds = noticeKinds.filter((kind) => noticeKindInfo[kind].who === 'everyone' || role !== 'student');
  const channels: NoticeChannel[] = ['email', 'push', ...(settings.whatsapp ? (['whatsapp'] as const) : [])];
  const ticked = (kind: NoticeKind, channel: NoticeChannel) =>
    ticks[kind]?.[channel] ?? isChosen(settings.preferences, kind, channel);
  const tick = (kind: NoticeKind, channel: NoticeChannel, on: boolean) =>
    setTicks((t) => ({ ...t, [kind]: { ...t[kind], [channel]: on } }));

  async function changePush(on: boolean) {
    setBusy(true);
    try {
      setPush(on ? await turnPushOn(settings.pushKey) : await turnPushOff());
    } catch (error) {
      if (!isSessionEnded(error)) toast.error(errorText(error, 'Could not change notifications on this device.'));
    } finally {
      setBusy(false);
    }
  }

  async function save(event: FormEvent) {
    event.preventDefault();
    setNumberError(undefined);
    const set: NoticePreferencesInput['set'] = [];
    for (const [kind, byChannel] of Object.entries(ticks) as [NoticeKind, Ticks[NoticeKind]][])
      for (const [channel, on] of Object.entries(byChannel ?? {}) as [NoticeChannel, boolean][])
        set.push({ kind, channel, on });
    setBusy(true);
    try {
      const preferences = await readJson(
        await client.api.me['notice-preferences'].$put({
          json: { set, ...(settings.whatsapp ? { whatsappNumber: number.trim() || null } : {}) },
        }),
      );
      setLoaded({ state: 'ready', settings: { ...settings, preferences } });
      setTicks({});
      toast.success(noticeMessages.saved);
      // A push choice ticked on a device that is not subscribed yet: this click is the moment to ask.
      if (push === 'off' && set.some((s) => s.channel === 'push' && s.on)) await changePush(true);
    } catch (error) {
      if (isSessionEnded(error)) return;
      const text = errorText(error, 'Could not save your choices.');
      if (text === noticeMessages.whatsappNeedsNumber) setNumberError(text);
      else toast.error(text);
    } finally {
      setBusy(false);
    }
  }

  return (
    <Section headingId={headingId}>
      <div className="mt-4 rounded-lg border border-slate-200 p-4 dark:border-slate-700">
        <p className="flex items-center gap-2 font-medium">
          <BellRing aria-hidden size={18} /> Push notifications on this device
        </p>
        {push === 'on' && (
          <div className="mt-2 flex flex-wrap items-center gap-3">
            <p className="text-sm text-slate-700 dark:text-slate-300">This device shows your notifications.</p>
            <button type="button" className="btn-secondary" disabled={busy} onClick={() => void changePush(false)}>
              Turn off on this device
            </button>
          </div>
        )}
        {push === 'off' && (
          <button type="button" className="btn-primary mt-2" disabled={busy} onClick={() => void changePush(true)}>
            {noticeMessages.pushAsk}
          </button>
        )}
        {push !== 'on' && push !== 'off' && (
          <p className="mt-2 text-sm text-slate-700 dark:text-slate-300">{pushWords[push]}</p>
        )}
      </div>

      <form className="mt-4" onSubmit={(event) => void save(event)} noValidate>
        {settings.whatsapp && (
          <div className="mb-4 max-w-sm">
            <label htmlFor={numberId} className="block font-medium">
              WhatsApp number
            </label>
            <input
              id={numberId}
              type="tel"
              inputMode="tel"
              autoComplete="tel"
              className="input mt-1"
              value={number}
              placeholder="082 123 4567"
              aria-invalid={numberError ? true : undefined}
              aria-describedby={`${numberId}-hint${numberError ? ` ${numberId}-error` : ''}`}
              onChange={(event) => setNumber(event.target.value)}
            />
            <p id={`${numberId}-hint`} className="mt-1 text-sm text-slate-600 dark:text-slate-400">
              Only for the notices you tick under WhatsApp.
            </p>
            {numberError && (
              <p id={`${numberId}-error`} className="mt-1 text-sm text-red-700 dark:text-red-300">
                {numberError}
              </p>
            )}
          </div>
        )}
        <div className="overflow-x-auto">
          <table className="w-full text-left text-sm">
            <caption className="sr-only">What we tell you, and how</caption>
            <thead>
              <tr className="border-b border-slate-200 dark:border-slate-700">
                <th scope="col" className="py-2 pr-2 font-medium">
                  Notice
                </th>
                {channels.map((channel) => (
                  <th key={channel} scope="col" className="px-2 py-2 text-center font-medium">
                    {channelNames[channel]}
                  </th>
                ))}
              </tr>
            </thead>
            <tbody>
              {kinds.map((kind) => (
                <tr key={kind} className="border-b border-slate-100 last:border-0 dark:border-slate-800">
                  <th scope="row" className="py-2 pr-2 font-normal">
                    {noticeKindInfo[kind].label}
                  </th>
                  {channels.map((channel) => {
                    const always = channel === 'email' && noticeKindInfo[kind].emailAlways;
                    return (
                      <td key={channel} className="px-2 py-2 text-center">
                        <input
                          type="checkbox"
                          className="h-5 w-5 accent-brand-700"
                          aria-label={`${noticeKindInfo[kind].label}: ${channelNames[channel]}${always ? ' (always sent)' : ''}`}
                          checked={ticked(kind, channel)}
                          disabled={always || busy}
                          onChange={(event) => tick(kind, channel, event.target.checked)}
                        />
                      </td>
                    );
                  })}
                </tr>
              ))}
            </tbody>
          </table>
        </div>
        <p className="mt-2 text-sm text-slate-600 dark:text-slate-400">
          A booking’s e-mails always go: they hold its time, price and payment reference.
        </p>
        <button type="submit" className="btn-primary mt-4" disabled={busy || Object.keys(ticks).length === 0}>
          Save choices
        </button>
      </form>
    </Section>
  );
}

function Section({ headingId, children }: { headingId: string; children: React.ReactNode }) {
  return (
    <section className="card mt-6" aria-labelledby={headingId}>
      <h2 id={headingId} className="text-xl font-semibold">
        {noticeMessages.preferencesTitle}
      </h2>
      <p className="mt-2 max-w-prose text-slate-700 dark:text-slate-300">{noticeMessages.preferencesIntro}</p>
      {children}
    </section>
  );
}
