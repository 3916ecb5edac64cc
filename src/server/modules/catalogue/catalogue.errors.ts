import { catalogueMessages } from '../../../common/catalogue.ts';
import { createError } from '../../http/errors.ts';

export const createModuleNotFoundError = () =>
  createError({ code: 'modules.not_found', message: catalogueMessages.notFound, status: 404 });

/** Also when the name differs only in case, or makes the same page address (slug) as another module's. */
export const createDuplicateModuleNameError = () =>
  createError({
    code: 'modules.duplicate_name',
    message: catalogueMessages.duplicateName,
    status: 409,
    fields: { name: catalogueMessages.duplicateName },
  });

/** "+R10" on a module already at the highest price. */
export const createPriceLimitError = () =>
  createError({ code: 'modules.price_limit', message: 'The price can be at most R100,000 per hour.', status: 400 });

/** A name such as "!!!" makes no page address (`/modules/<slug>`). */
export const createNameWithoutSlugError = () => {
  const message = 'The name needs at least one letter or digit.';
  return createError({ code: 'request.invalid', message, status: 400, fields: { name: message } });
};
