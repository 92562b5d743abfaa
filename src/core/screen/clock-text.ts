// A moment as a person reads it in a status bar: "03:04" (local time, 24 h), with the date when it
// is not today. Pure: the time zone offset comes in with the value.

export function formatClock(
  at: number,
  nowForDay: number = at,
  offsetMinutes: number = new Date(at).getTimezoneOffset(),
): string {
  const local = new Date(at - offsetMinutes * 60_000);
  const today = new Date(nowForDay - offsetMinutes * 60_000);
  const hh = String(local.getUTCHours()).padStart(2, '0');
  const mm = String(local.getUTCMinutes()).padStart(2, '0');
  const sameDay = local.toISOString().slice(0, 10) === today.toISOString().slice(0, 10);
  return sameDay ? `${hh}:${mm}` : `${local.toISOString().slice(0, 10)} ${hh}:${mm}`;
}
