import { ApiProperty, ApiPropertyOptional } from '@nestjs/swagger';

/** The media type of every error answer (RFC 9457, section 3). */
export const PROBLEM_JSON = 'application/problem+json';

/** One problem of one input: the field (or header, or path parameter) by full path, and what is wrong with it. */
export class FieldProblem {
  @ApiProperty({ description: 'Full path of the input at fault', example: 'items[0].quantity' })
  field: string;

  @ApiProperty({ description: 'What is wrong with it', example: 'items[0].quantity must not be greater than 1000' })
  detail: string;
}

/**
 * The body of every 4xx and 5xx this project answers: RFC 9457 problem details, so a client needs
 * one error parser. `code` is the stable `DOMAIN.REASON` to branch on; `type` is the same code as a
 * URI (RFC 9457 asks for a URI; a URN is one that nobody will try to fetch). Validation problems add
 * `fields` (the names, what most clients need) and `errors` (one entry per problem).
 */
export class ProblemDetails {
  @ApiProperty({ description: 'URI of the problem type: `urn:problem-type:` + `code`', example: 'urn:problem-type:ORDERS.NOT_FOUND' })
  type: string;

  @ApiProperty({ description: 'Short summary of the problem: the HTTP status text', example: 'Not Found' })
  title: string;

  @ApiProperty({ description: 'HTTP status, repeated in the body', example: 404 })
  status: number;

  @ApiProperty({
    description: 'What went wrong with this request, for humans',
    example: 'Order 0b0f6a8e-6b1f-4c49-9f5e-2f3b3f1f8a11 not found',
  })
  detail: string;

  @ApiProperty({ description: 'Stable error code, DOMAIN.REASON; kept across versions', example: 'ORDERS.NOT_FOUND' })
  code: string;

  @ApiPropertyOptional({
    description: 'Inputs (fields, headers, path parameters) at fault, by full path',
    type: [String],
    example: ['items[0].quantity'],
  })
  fields?: string[];

  @ApiPropertyOptional({ description: 'One entry per problem of an input', type: [FieldProblem] })
  errors?: FieldProblem[];
}

/** `urn:problem-type:<code>`: the `type` member for a code. */
export const problemType = (code: string): string => `urn:problem-type:${code}`;
