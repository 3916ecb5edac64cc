import { brand } from '../../common/brand.ts';
import { escapeHtml } from '../../common/escape-html.ts';

/** A rendered e-mail: both bodies are kept so every client can show it. */
export interface EmailContent {
  subject: string;
  text: string;
  html: string;
}

/** One layout for every e-mail: a heading, paragraphs, an optional button, and the sign-off. */
export function renderEmail(args: {
  subject: string;
  greeting: string;
  paragraphs: string[];
  action?: { label: string; url: string };
  after?: string[];
}): EmailContent {
  const { subject, greeting, paragraphs, action, after = [] } = args;
  const text = [
    greeting,
    '',
    ...paragraphs.flatMap((p) => [p, '']),
    ...(action ? [`${action.label}: ${action.url}`, ''] : []),
    ...after.flatMap((p) => [p, '']),
    `— ${brand.name}`,
    `${brand.email} · WhatsApp ${brand.phoneDisplay}`,
  ].join('\n');
  const p = (s: string) => `<p style="margin:0 0 16px;line-height:1.5;white-space:pre-line">${escapeHtml(s)}</p>`;
  const html = `<!doctype html>
<html lang="en"><head><meta charset="utf-8"><meta name="viewport" content="width=device-width"><title>${escapeHtml(subject)}</title></head>
<body style="margin:0;padding:24px;background:#f4f6f8;font-family:system-ui,-apple-system,'Segoe UI',Roboto,sans-serif;color:#1f2937">
<div style="max-width:560px;margin:0 auto;background:#ffffff;border-radius:12px;padding:32px">
<h1 style="margin:0 0 24px;font-size:20px;color:${brand.themeColor}">${escapeHtml(brand.name)}</h1>
${p(greeting)}
${paragraphs.map(p).join('\n')}
${
  action
    ? `<p style="margin:24px 0"><a href="${escapeHtml(action.url)}" style="display:inline-block;background:${brand.themeColor};color:#ffffff;text-decoration:none;padding:12px 20px;border-radius:8px;font-weight:600">${escapeHtml(action.label)}</a></p>
<p style="margin:0 0 16px;font-size:13px;color:#4b5563;word-break:break-all">If the button does not work, open this link: ${escapeHtml(action.url)}</p>`
    : ''
}
${after.map(p).join('\n')}
<p style="margin:24px 0 0;font-size:13px;color:#4b5563">${escapeHtml(brand.name)} · ${escapeHtml(brand.email)} · WhatsApp ${escapeHtml(brand.phoneDisplay)}</p>
</div></body></html>`;
  return { subject, text, html };
}

export const verificationEmail = (name: string, url: string) =>
  renderEmail({
    subject: `Verify your e-mail for ${brand.name}`,
    greeting: `Hi ${name},`,
    paragraphs: [
      'Please confirm that this is your e-mail address so you can book sessions: open the link below and log in with the password you chose. The link works for 24 hours.',
    ],
    action: { label: 'Verify my e-mail', url },
    after: ['If you did not create an account, ignore this e-mail: without the password nobody can use the link.'],
  });

export const welcomeEmail = (name: string, publicUrl: string) =>
  renderEmail({
    subject: `Welcome to ${brand.name}!`,
    greeting: `Welcome, ${name}!`,
    paragraphs: [
      'Thanks for joining. Once your e-mail is verified you can browse modules, book one-on-one sessions from R80/hour and ask questions on the community board.',
      'Sessions are paid by EFT and you pay only when you book. Reschedule with at least 24 hours notice.',
    ],
    action: { label: 'Browse courses', url: `${publicUrl}/offers` },
  });

export const passwordResetEmail = (name: string, url: string) =>
  renderEmail({
    subject: `Reset your ${brand.name} password`,
    greeting: `Hi ${name},`,
    paragraphs: [
      'Someone asked to reset the password of your account. Choose a new password with the link below; it works for 24 hours.',
    ],
    action: { label: 'Choose a new password', url },
    after: ['If this was not you, ignore this e-mail: your password stays as it is.'],
  });

/**
 * "Forgot Password?" from someone who logs in with Google only (an account from the old site, say): they have
 * no password to reset, and are no invited staff member either.
 */
export const firstPasswordEmail = (name: string, url: string) =>
  renderEmail({
    subject: `Set a password for ${brand.name}`,
    greeting: `Hi ${name},`,
    paragraphs: [
      'Someone asked for a new password for your account. You log in with Google and have no password yet: with the link below you can choose one, to log in with your e-mail address too. The link works for 24 hours.',
      '"Continue with Google" keeps working either way.',
    ],
    action: { label: 'Set a password', url },
    after: ['If this was not you, ignore this e-mail: nothing changes.'],
  });

export const staffInvitationEmail = (name: string, url: string) =>
  renderEmail({
    subject: `You have been invited to ${brand.name}`,
    greeting: `Hi ${name},`,
    paragraphs: [`You have been given a staff account on ${brand.name}. Choose a password to start.`],
    action: { label: 'Set my password', url },
    after: ['The link works for 24 hours. After that, use "Forgot Password?" on the login page to get a new one.'],
  });

/** Sign-up with an address that has an account: the answer reveals nothing, so the owner hears of it here. */
export const accountExistsEmail = (name: string, publicUrl: string) =>
  renderEmail({
    subject: `You already have a ${brand.name} account`,
    greeting: `Hi ${name},`,
    paragraphs: [
      'Someone, probably you, tried to create a new account with this e-mail address. You already have one, so nothing was changed.',
      'Log in with your password, or choose a new one if you have forgotten it.',
    ],
    action: { label: 'Log in', url: `${publicUrl}/login` },
    after: [`Forgot your password? ${publicUrl}/change-password`, 'If this was not you, you can ignore this e-mail.'],
  });
