/** The mail to a company's super admins when the platform disables a webhook endpoint that kept failing. */
export function disabledMail(language: "en" | "es", url: string, failingSince: number): { subject: string; body: string } {
  const since = new Date(failingSince).toISOString().slice(0, 16).replace("T", " ") + " UTC";
  return language === "es"
    ? {
        subject: "Webhook desactivado: el destino no responde",
        body: `El webhook ${url} falla desde ${since} y se ha desactivado. Los eventos siguen registrándose. Corrija el destino, vuelva a activarlo en Configuración > Webhooks y reenvíe los eventos perdidos desde su registro de entregas.`,
      }
    : {
        subject: "Webhook disabled: its endpoint is not answering",
        body: `The webhook ${url} has been failing since ${since} and has been disabled. Events are still recorded. Fix the endpoint, enable it again under Settings > Webhooks and replay the missed events from its delivery log.`,
      };
}
