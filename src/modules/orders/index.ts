export { createOrdersService, type OrdersService, type OrderView, type NewOrder } from './orders.service.ts';
