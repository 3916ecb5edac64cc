/**
 * Spec §8 Admin and the module pages, word for word where the spec gives them. Apart from the schemas
 * (catalogue.ts re-exports them) so the read-only catalogue pages need no zod.
 */
export const catalogueMessages = {
  fillAllFields: 'Please fill in all module fields.',
  fetchFailed: 'Failed to fetch modules.',
  added: 'Module added successfully!',
  addFailed: 'Failed to add module.',
  updated: 'Module updated successfully!',
  updateFailed: 'Failed to update module.',
  deleted: 'Module deleted successfully!',
  deleteFailed: 'Failed to delete module.',
  notFound: 'Module Not Found',
  deleteConfirm: (name: string) =>
    `Delete "${name}"? It disappears from the catalogue; students who enrolled or booked keep its name on their records.`,
  duplicateName: 'A module with this name already exists.',
  offline: 'You are offline. Connect to the internet to change the catalogue.',
} as const;
