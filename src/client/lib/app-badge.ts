type BadgingNavigator = Navigator & { setAppBadge?(n?: number): Promise<void>; clearAppBadge?(): Promise<void> };

/**
 * Shows `count` on the installed app's icon, or clears it at 0 (the Badging API, where the browser has it; nothing
 * elsewhere). A student's is her unread notices; the staff's, the booking requests waiting for them (issue 38 §1).
 */
export function showAppBadge(count: number): void {
  const nav = navigator as BadgingNavigator;
  void (count > 0 ? nav.setAppBadge?.(count) : nav.clearAppBadge?.())?.catch(() => undefined);
}
