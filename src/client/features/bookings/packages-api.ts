import type { BuyPackageInput, Package, PackageOffer, PackageOfferInput } from '../../../common/packages.ts';
import type { PackagePaymentInput } from '../../../common/payments.ts';
import { packageReceiptPath } from '../../../common/receipts.ts';
import { fetchPdf, readJson } from '../../lib/api.ts';
import { client } from '../../lib/api-client.ts';

const packages = client.api.packages;

/** Every call of the monthly packages (docs/api.md, `/api/packages`), in one place. Online only. */
export const packagesApi = {
  /** Those offered; the admin's answer holds those no longer offered too. */
  offers: async (signal?: AbortSignal): Promise<PackageOffer[]> =>
    (await readJson(await packages.offers.$get({}, { init: { signal } }))).offers,
  saveOffer: async (input: PackageOfferInput): Promise<PackageOffer> =>
    readJson(await packages.offers.$post({ json: input })),
  /** The caller's packages; the admin's answer is every package. */
  list: async (signal?: AbortSignal): Promise<Package[]> =>
    (await readJson(await packages.$get({}, { init: { signal } }))).packages,
  buy: async (input: BuyPackageInput): Promise<Package> => readJson(await packages.$post({ json: input })),
  recordPayment: async (id: string, input: PackagePaymentInput): Promise<Package> =>
    readJson(await packages[':id'].payments.$post({ param: { id: encodeURIComponent(id) }, json: input })),
  /** A payment's receipt, as the server makes it (a PDF; the package's student or the admin). */
  receipt: (packageId: string, paymentId: string): Promise<Blob> => fetchPdf(packageReceiptPath(packageId, paymentId)),
};
