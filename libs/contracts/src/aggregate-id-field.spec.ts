import { describe, expect, it } from '@jest/globals';
import { OrderEvents } from './order-events.js';
import { ReservationEvents } from './reservation-events.js';

describe('the domain message declarations', () => {
  it('when a declaration is listed, then it names the payload field that is its aggregate id, and the schema requires that field', () => {
    const declarations = [OrderEvents, ReservationEvents].flatMap((byType) => Object.values(byType));
    expect(declarations.length).toBeGreaterThan(0);
    for (const declaration of declarations) {
      expect({ type: declaration.type, field: declaration.aggregateIdField }).toEqual({
        type: declaration.type,
        field: expect.any(String),
      });
      const withoutField = declaration.schema['~standard'].validate({}) as { issues?: { path?: unknown[] }[] };
      const paths = (withoutField.issues ?? []).map((issue) => JSON.stringify(issue.path));
      expect(paths).toContain(JSON.stringify([declaration.aggregateIdField]));
    }
  });
});
