import { z } from "zod";

/** A code from the authenticator app (or, to switch it off, a recovery code): checked by the service. */
export const authenticatorCodeSchema = z.object({
  code: z
    .string({ required_error: "Enter the code from your authenticator app" })
    .trim()
    .min(1, "Enter the code from your authenticator app")
    .max(20, "Enter the code from your authenticator app"),
});
