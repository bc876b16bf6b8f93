import { EventEmitter } from 'node:events';
import type { Order, LineItem } from './types';

export const STATUSES = ['pending', 'paid', 'shipped', 'cancelled'];

export interface OrderStoreOptions {
  maxOrders: number;
  currency: string;
}

export class OrderStore extends EventEmitter {
  private orders = new Map<string, Order>();

  constructor(private readonly options: OrderStoreOptions) {
    super();
  }

  add(order: Order): void {
    if (this.orders.size >= this.options.maxOrders) {
      throw new Error('store is full');
    }
    this.orders.set(order.id, order);
    this.emit('added', order);
  }

  get(id: string): Order | undefined {
    return this.orders.get(id);
  }

  remove(id: string): boolean {
    const existed = this.orders.delete(id);
    if (existed) {
      this.emit('removed', id);
    }
    return existed;
  }

  total(id: string): number {
    const order = this.orders.get(id);
    if (!order) {
      return 0;
    }
    return order.items.reduce((sum, item) => sum + item.price * item.quantity, 0);
  }
}

export function validateName(value: string): boolean {
  if (!value) {
    return false;
  }
  return value.length <= 64;
}

export function validateEmail(value: string): boolean {
  if (!value) {
    return false;
  }
  return value.includes('@');
}

export function formatItem(item: LineItem, currency: string): string {
  const amount = (item.price * item.quantity).toFixed(2);
  return `${item.name} x${item.quantity}: ${amount} ${currency}`;
}
