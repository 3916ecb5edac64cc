import { CircleAlert, Info, WifiOff } from 'lucide-react';
import type { ReactNode } from 'react';

const tones = {
  error: {
    icon: CircleAlert,
    className: 'border-red-200 bg-red-50 text-red-800 dark:border-red-900 dark:bg-red-950 dark:text-red-200',
  },
  info: {
    icon: Info,
    className:
      'border-slate-200 bg-slate-100 text-slate-800 dark:border-slate-700 dark:bg-slate-800 dark:text-slate-100',
  },
  offline: {
    icon: WifiOff,
    className:
      'border-amber-200 bg-amber-50 text-amber-900 dark:border-amber-900 dark:bg-amber-950 dark:text-amber-100',
  },
} as const;

/**
 * A message in the page: errors are announced at once (`alert`), the rest politely (`status`). The icon and
 * the words carry the meaning, the colour only repeats it.
 */
export function Notice({
  tone,
  children,
  className = '',
}: {
  tone: keyof typeof tones;
  children: ReactNode;
  className?: string;
}) {
  const { icon: Icon, className: toneClass } = tones[tone];
  return (
    <div
      role={tone === 'error' ? 'alert' : 'status'}
      className={`flex items-start gap-3 rounded-lg border p-3 text-sm font-medium ${toneClass} ${className}`}
    >
      <Icon aria-hidden size={18} className="mt-0.5 shrink-0" />
      <div>{children}</div>
    </div>
  );
}
