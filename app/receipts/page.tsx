/** /receipts: receipts are checked, never stored, here; the page that checks one is /receipts/verify. */
import { redirect } from 'next/navigation';

export default function ReceiptsPage() {
  redirect('/receipts/verify');
}
