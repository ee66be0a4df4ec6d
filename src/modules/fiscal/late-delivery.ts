import { addDays, localDate, startOfDay } from '../../lib/zoned-days.ts';
import { afterWorkingDays } from './working-days.ts';

/** Working days a receipt issued without its JIR may be delivered late in (Zakon o fiskalizaciji čl. 21 st. 2). */
export const LATE_DELIVERY_WORKING_DAYS = 2;

/**
 * The instant the late-delivery period of a receipt issued at `issuedAt` ends: midnight after
 * the second Croatian working day following the day of issue, where the company is. Portico
 * starts counting at the receipt's issue (the first send that got no answer happens then): the
 * law counts from the day the connection broke, which is that day or earlier, never later.
 */
export function lateDeliveryDeadline(issuedAt: string, timeZone: string): string {
  const day = localDate(issuedAt, timeZone);
  return startOfDay(addDays(afterWorkingDays(day, LATE_DELIVERY_WORKING_DAYS), 1), timeZone);
}
