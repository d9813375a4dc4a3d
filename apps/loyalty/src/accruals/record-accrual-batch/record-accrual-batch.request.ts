import { Type } from 'class-transformer';
import { Matches, ValidateNested } from 'class-validator';
import { ApiProperty } from '@nestjs/swagger';
import { AccrualBatchFields } from '@libs/contracts';
import { Satisfies } from '@libs/http';
import { IDEMPOTENCY_KEY_FORMAT } from '@libs/idempotency';
import { RecordAccrualRequest } from '../record-accrual/record-accrual.request.js';

/** One accrual of a batch: its operation id and the body `POST /accruals` would take. */
export class AccrualBatchCommand {
  @Satisfies(AccrualBatchFields.id, {
    example: 'loyalty-accrual:0b0f6a8e-6b1f-4c49-9f5e-2f3b3f1f8a11',
    description: "The caller's operation id, stored as its Idempotency-Key for POST /accruals and echoed in the result",
  })
  @Matches(IDEMPOTENCY_KEY_FORMAT, {
    message: 'id must be an Idempotency-Key: 8 to 200 characters of letters, digits, ".", "_", ":" or "-"',
  })
  id: string;

  @ApiProperty({ type: RecordAccrualRequest })
  @ValidateNested()
  @Type(() => RecordAccrualRequest)
  body: RecordAccrualRequest;
}

/**
 * Many accruals in one request: the shape `@libs/commands` sends for a command path with a batch
 * endpoint (`{ commands: [{ id, body }] }`). Every accrual is checked as `POST /accruals` checks
 * it; one malformed accrual refuses the whole batch with 400 naming it (`commands[3].body.points`),
 * and the caller then sends the accruals one by one, so only that one is refused.
 */
export class RecordAccrualBatchRequest {
  @Satisfies(AccrualBatchFields.commands, { type: [AccrualBatchCommand] })
  @ValidateNested({ each: true })
  @Type(() => AccrualBatchCommand)
  commands: AccrualBatchCommand[];
}
