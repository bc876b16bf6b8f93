// A prose locator comment (branch cemiss): `// In ShipOrder, allow shipping from pending:` opens a
// hunk, names a definition the original has, then says in a short note ending with a colon what the
// code after it does. It is placement, not content (location-comments.ts IN_PLACE_NOTE): the
// expected file never has it. Opening the update it becomes a marker, so the hunk after it is
// placed by its anchors inside the file, not taken as the file's head. A code comment that names no
// definition of the original (`// In production, …:`) stays.
import { describe, it } from 'vitest';
import { mergedEverywhere } from './judged.js';

const service = [
  'package orders',
  '',
  'func (s *Server) CreateOrder(ctx context.Context, req *CreateOrderRequest) (*Order, error) {',
  '\to := &Order{ID: s.ids.Next(), Status: StatusPending}',
  '\tfor _, it := range req.Items {',
  '\t\to.Total += it.Price * it.Quantity',
  '\t}',
  '\treturn o, s.store.Insert(ctx, o)',
  '}',
  '',
  'func (s *Server) ShipOrder(ctx context.Context, req *ShipOrderRequest) error {',
  '\terr := s.store.UpdateStatus(ctx, req.OrderID, StatusPaid, StatusShipped)',
  '\tif err != nil {',
  '\t\treturn err',
  '\t}',
  '\treturn s.notify.Shipped(ctx, req.OrderID)',
  '}',
  '',
].join('\n');

describe('prose locator comments (cemiss)', () => {
  it('two hunks in reverse file order, each opened by `// In Name, note:`: the notes are not written into the file', () => {
    const update = [
      '// In ShipOrder, allow shipping straight from pending for prepaid orders:',
      '\terr := s.store.UpdateStatus(ctx, req.OrderID, StatusPaid, StatusShipped)',
      '\tif errors.Is(err, ErrNoRows) && req.Prepaid {',
      '\t\terr = s.store.UpdateStatus(ctx, req.OrderID, StatusPending, StatusShipped)',
      '\t}',
      '\tif err != nil {',
      '',
      '// ... existing code ...',
      '',
      '// In CreateOrder, skip empty lines:',
      '\tfor _, it := range req.Items {',
      '\t\tif it.Quantity == 0 {',
      '\t\t\tcontinue',
      '\t\t}',
      '\t\to.Total += it.Price * it.Quantity',
      '// ... existing code ...',
      '',
    ].join('\n');
    const expected = service
      .replace('\tfor _, it := range req.Items {\n', '\tfor _, it := range req.Items {\n\t\tif it.Quantity == 0 {\n\t\t\tcontinue\n\t\t}\n')
      .replace(
        '\terr := s.store.UpdateStatus(ctx, req.OrderID, StatusPaid, StatusShipped)\n',
        '\terr := s.store.UpdateStatus(ctx, req.OrderID, StatusPaid, StatusShipped)\n\tif errors.Is(err, ErrNoRows) && req.Prepaid {\n\t\terr = s.store.UpdateStatus(ctx, req.OrderID, StatusPending, StatusShipped)\n\t}\n',
      );
    mergedEverywhere(service, update, expected);
  });

  it('control: a note that names nothing the original defines is a code comment and stays', () => {
    const update = [
      '// ... existing code ...',
      '\to := &Order{ID: s.ids.Next(), Status: StatusPending}',
      '\t// In production, prices come from the catalogue:',
      '\tfor _, it := range req.Items {',
      '// ... existing code ...',
      '',
    ].join('\n');
    const expected = service.replace('\tfor _, it := range req.Items {\n', '\t// In production, prices come from the catalogue:\n\tfor _, it := range req.Items {\n');
    mergedEverywhere(service, update, expected);
  });
});
