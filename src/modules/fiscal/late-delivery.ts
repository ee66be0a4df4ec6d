import { addDays, afterWorkingDays } from './working-days.ts';

/** Working days a receipt issued without its JIR may be delivered late in (Zakon o fiskalizaciji čl. 21 st. 2). */
export const LATE_DELIVERY_WORKING_DAYS = 2;

/**
 * The instant the late-delivery period of a receipt issued at `issuedAt` ends: midnight after
 * the second Croatian working day following the day of issue, where the company is. Portico
 * starts counting at the receipt's issue (the first send that got no answer happens then): the
 * law counts from the day the connection broke, which is that day or earlier, never later.
 */
export function lateDeliveryDeadline(issuedAt: string, timeZone: string): string {
  const day = dayIn(new Date(issuedAt), timeZone);
  return midnightStarting(addDays(afterWorkingDays(day, LATE_DELIVERY_WORKING_DAYS), 1), timeZone);
}

function dayIn(instant: Date, timeZone: string): string {
  return new Intl.DateTimeFormat('en-CA', { timeZone, year: 'numeric', month: '2-digit', day: '2-digit' }).format(
    instant,
  );
}

/** The instant a calendar day starts in a time zone (its offset read at that instant, DST included). */
function midnightStarting(day: string, timeZone: string): string {
  const utcMidnight = Date.parse(`${day}T00:00:00Z`);
  let guess = utcMidnight - offsetMs(utcMidnight, timeZone);
  guess = utcMidnight - offsetMs(guess, timeZone);
  return new Date(guess).toISOString();
}

function offsetMs(instant: number, timeZone: string): number {
  const parts = new Intl.DateTimeFormat('en-US', {
    timeZone,
    hourCycle: 'h23',
    year: 'numeric',
    month: '2-digit',
    day: '2-digit',
    hour: '2-digit',
    minute: '2-digit',
    second: '2-digit',
  }).formatToParts(new Date(instant));
  const get = (type: string) => Number(parts.find((p) => p.type === type)?.value);
  const asUtc = Date.UTC(get('year'), get('month') - 1, get('day'), get('hour'), get('minute'), get('second'));
  return asUtc - Math.floor(instant / 1000) * 1000;
}
