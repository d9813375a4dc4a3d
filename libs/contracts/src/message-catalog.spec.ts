import { describe, expect, it } from '@jest/globals';
import { MessageCatalog } from './message-catalog.js';

describe('MessageCatalog', () => {
  it('when a declaration is listed, then it names the payload field that is its aggregate id, and the schema requires that field', () => {
    const declarations = Object.values(MessageCatalog).flatMap((byType) => Object.values(byType));
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
