import nodemailer from 'nodemailer';

/** The course enrollment email (spec#states-and-transitions: sent on a re-enrollment). */
export interface EnrollmentMail {
  readonly to: string;
  readonly subject: string;
  readonly text: string;
}

/** Where the reference server sends its mail: an SMTP server (no TLS, no authentication). */
export interface SmtpOptions {
  readonly host: string;
  readonly port: number;
}

/** The sender of the reference server's mail. */
export const MAIL_FROM = 'lp-reference <noreply@lp-reference.invalid>';

/**
 * A mailer over SMTP (nodemailer): each mail is sent in the background, so a handler stays
 * synchronous; a failed delivery is reported once on stderr and the request is not affected
 * (spec#states-and-transitions names the email, not what a failed delivery does to the request).
 */
export function smtpMailer(smtp: SmtpOptions): { send: (mail: EnrollmentMail) => void; close: () => void } {
  const transport = nodemailer.createTransport({ host: smtp.host, port: smtp.port, secure: false, ignoreTLS: true });
  let warned = false;
  return {
    send: (mail) => {
      transport.sendMail({ from: MAIL_FROM, to: mail.to, subject: mail.subject, text: mail.text }).catch((error: unknown) => {
        if (!warned) process.stderr.write(`lp-reference: mail to ${mail.to} not delivered (${(error as Error).message})\n`);
        warned = true;
      });
    },
    close: () => transport.close(),
  };
}
