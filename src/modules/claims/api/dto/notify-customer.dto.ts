import { EmailField } from '@/platform/http/validation/fields';

export class NotifyCustomerDto {
  @EmailField({
    required: true,
    example: 'maria.gonzalez@example.com',
    description: 'Address that receives the claim submission notification.',
  })
  email: string;
}
