import { z } from "zod";

/** Company mailer configuration (spec part 2 §3, §5 "host, port, user name and password all required"). */
const text = (message: string) => z.string({ required_error: message, invalid_type_error: message }).trim().min(1, message);

export const mailerFormSchema = z.object({
  host_name: text("Required host name").pipe(
    z
      .string()
      .max(253)
      .regex(/^[A-Za-z0-9.-]+$/, "Host name is invalid"),
  ),
  port_name: z
    .union([z.number(), z.string()], { required_error: "Required port", invalid_type_error: "Required port" })
    .refine((v) => String(v).trim() !== "", "Required port")
    .transform((v) => Number(v))
    .refine((v) => Number.isInteger(v) && v >= 1 && v <= 65535, "Port must be a number from 1 to 65535"),
  user_name: text("Required user name").pipe(z.string().max(200)),
  user_password: z.string({ required_error: "Required password", invalid_type_error: "Required password" }).min(1, "Required password").max(500),
});
export type MailerInput = z.output<typeof mailerFormSchema>;

export const mailerBody = z
  .object({
    id: z.union([z.number(), z.string()]).nullish(),
    company_id: z.union([z.number(), z.string()]).nullish(),
    host_name: z.string().optional(),
    port_name: z.union([z.number(), z.string()]).optional(),
    user_name: z.string().optional(),
    user_password: z.string().optional(),
  })
  .passthrough();

export const testMailBody = z.object({ company_id: z.union([z.number(), z.string()]).nullish(), to: z.string().email("Email invalid").optional() });
