import { Module } from '@nestjs/common';
import { TypeOrmModule } from '@nestjs/typeorm';
import { AccountsModule } from '@/modules/accounts';
import { EligibilityModule } from '@/modules/eligibility';
import { WebModule } from '@/modules/web';
import { PatientRecordsBinding } from './pages/patient-records.binding';
import { WebPatientsController } from './pages/web-patients.controller';
import { PatientLinksService } from './domain/patient-links.service';
import { Patient } from './store/patient.entity';
import { PatientsController } from './api/patients.controller';
import { PatientsRepository } from './store/patients.repository';
import { PatientsService } from './domain/patients.service';

@Module({
  imports: [TypeOrmModule.forFeature([Patient]), AccountsModule, EligibilityModule, WebModule],
  controllers: [PatientsController, WebPatientsController],
  // The check form's patient records (eligibility's port, PatientRecordsBinding).
  providers: [PatientsRepository, PatientsService, PatientLinksService, PatientRecordsBinding],
  exports: [PatientsService, PatientLinksService],
})
export class PatientsModule {}
