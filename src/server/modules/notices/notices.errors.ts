import { noticeMessages } from '../../../common/notices.ts';
import { createError, createValidationError } from '../../http/errors.ts';

export const createWhatsAppNeedsNumberError = () =>
  createValidationError({ whatsappNumber: noticeMessages.whatsappNeedsNumber });

export const createDeliveryNotFoundError = () =>
  createError({
    code: 'notices.delivery_not_found',
    message: 'There is no failed delivery with that id.',
    status: 404,
  });

export const createPushServiceRefusedError = () =>
  createValidationError({ endpoint: 'This browser’s push service is not one we can send to.' });
