import { Column, Entity, PrimaryColumn, UpdateDateColumn } from 'typeorm';

/** Stock of one SKU. Conservation: what was set = available + reserved (+ what left with orders). */
@Entity({ name: 'stock_items' })
export class StockItem {
  @PrimaryColumn({ type: 'text' })
  sku: string;

  @Column({ type: 'int' })
  available: number;

  @Column({ type: 'int' })
  reserved: number;

  @UpdateDateColumn({ name: 'updated_at', type: 'timestamptz' })
  updatedAt: Date;
}
