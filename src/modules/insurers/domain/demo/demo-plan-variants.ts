/**
 * The sandbox's three plan designs (names, groups and the figures that differ between them).
 */

export interface PlanVariant {
  name: string;
  group: string;
  groupId: string;
  examCopay: string;
  examOon: string;
  framesInn: string;
  framesOon: string;
  contactsInn: string;
  contactsOon: string;
  lensCopay: string;
}

/**
 * Out-of-network figures follow published schedules ("up to", per benefit period; see
 * shared/research/payer-connectivity.md): Plus is VSP's large-employer schedule (exam 45, frames
 * 70, contacts 105), Premier EyeMed's county schedule (40, 91, 130), Basic sits at the low end
 * (exam 35, Davis Vision's frames 50, Aetna's contacts 90). Lens allowances (single vision 30,
 * bifocal 50, trifocal 65, progressive as bifocal) and medically necessary contacts (210) are
 * VSP's. In network: frames and contacts 130–200, exam copay 0–20, materials copay 15–25.
 */
export const PLAN_VARIANTS: PlanVariant[] = [
  {
    name: 'VisionCare Plus',
    group: 'Acme Manufacturing',
    groupId: 'GRP-104233',
    examCopay: '10',
    examOon: '45',
    framesInn: '150',
    framesOon: '70',
    contactsInn: '150',
    contactsOon: '105',
    lensCopay: '25',
  },
  {
    name: 'VisionCare Basic',
    group: 'Lone Star Independent Schools',
    groupId: 'GRP-220871',
    examCopay: '20',
    examOon: '35',
    framesInn: '130',
    framesOon: '50',
    contactsInn: '130',
    contactsOon: '90',
    lensCopay: '25',
  },
  {
    name: 'Premier Vision Choice',
    group: 'Bluebonnet Health System',
    groupId: 'GRP-318540',
    examCopay: '0',
    examOon: '40',
    framesInn: '200',
    framesOon: '91',
    contactsInn: '200',
    contactsOon: '130',
    lensCopay: '15',
  },
];
